package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/openrai/raiserver/client"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// chatChunk is a chat.completion.chunk carrying content for choice index.
func chatChunk(index int, content string) []byte {
	return fmt.Appendf(nil, `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o",`+
		`"choices":[{"index":%d,"delta":{"content":%s},"finish_reason":null}]}`, index, quote(content))
}

// split cuts s into pieces: whole, rune by rune, or random sizes (at rune
// boundaries: a JSON string carries whole characters).
func split(s, how string, rng *rand.Rand) []string {
	var out []string
	switch how {
	case "whole":
		return []string{s}
	case "runes":
		for _, r := range s {
			out = append(out, string(r))
		}
	default:
		for len(s) > 0 {
			n := min(1+rng.IntN(12), len(s))
			for n < len(s) && !utf8.RuneStart(s[n]) {
				n++
			}
			out = append(out, s[:n])
			s = s[n:]
		}
	}
	return out
}

// collect reads a gate until it ends: the text released per item, and the
// final error (nil for io.EOF). It checks that releases are contiguous.
func collect(t *testing.T, g *client.Gate) (map[client.Item]string, bool, error) {
	t.Helper()
	return collectFrom(t, g, map[client.Item]string{})
}

// collectFrom is collect after the releases in got.
func collectFrom(t *testing.T, g *client.Gate, got map[client.Item]string) (map[client.Item]string, bool, error) {
	t.Helper()
	unchecked := false
	for range 1 << 20 {
		r, err := g.Recv()
		if errors.Is(err, io.EOF) {
			return got, unchecked, nil
		}
		if err != nil {
			return got, unchecked, err
		}
		if r.Offset != len(got[r.Item]) {
			t.Fatalf("release of %v at %d, want %d", r.Item, r.Offset, len(got[r.Item]))
		}
		if r.Text == "" {
			t.Fatalf("empty release of %v", r.Item)
		}
		got[r.Item] += r.Text
		unchecked = unchecked || r.Unchecked
	}
	t.Fatal("gate never ended")
	return nil, false, nil
}

var choice0 = client.Item{Source: client.Completion, MessageID: "0", ContentIndex: 0}

const benignAnswer = "Sure! Here is a plan for the party.\nFirst, pick a theme your daughter loves, like pirates or space. " +
	"Then send the invitations two weeks ahead. Bake a cake together the day before; it is half the fun. 🎂 Enjoy!"

func TestGateReleasesBenignText(t *testing.T) {
	_, c := newServer(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, how := range []string{"whole", "runes", "random"} {
		t.Run(how, func(t *testing.T) {
			g, err := c.NewGate(testContext(t), client.Chat)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			go func() {
				defer g.CloseSend()
				if err := g.Send([]byte(`{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant"}}]}`)); err != nil {
					return
				}
				for _, p := range split(benignAnswer, how, rng) {
					if err := g.Send(chatChunk(0, p)); err != nil {
						return
					}
				}
			}()
			got, unchecked, err := collect(t, g)
			if err != nil {
				t.Fatal(err)
			}
			if got[choice0] != benignAnswer || len(got) != 1 || unchecked {
				t.Fatalf("released %d items, choice 0: %d of %d bytes, unchecked=%v", len(got), len(got[choice0]), len(benignAnswer), unchecked)
			}
			if v := g.Verdict(); v.Blocked || v.Unavailable {
				t.Errorf("verdict blocked=%v unavailable=%v", v.Blocked, v.Unavailable)
			}
		})
	}
}

// TestGateReleasesBeforeTheEnd: a finished sentence is released while the
// model is still producing; the unfinished rest waits for CloseSend.
func TestGateReleasesBeforeTheEnd(t *testing.T) {
	_, c := newServer(t)
	g, err := c.NewGate(testContext(t), client.Chat)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.Send(chatChunk(0, "The first sentence is done. The second is")); err != nil {
		t.Fatal(err)
	}
	r, err := g.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if r.Item != choice0 || r.Offset != 0 || r.Text != "The first sentence is done. " || r.Unchecked {
		t.Fatalf("release = %+v", r)
	}
	if err := g.Send(chatChunk(0, " not")); err != nil {
		t.Fatal(err)
	}
	if err := g.CloseSend(); err != nil {
		t.Fatal(err)
	}
	got, _, err := collectFrom(t, g, map[client.Item]string{choice0: r.Text})
	if err != nil || got[choice0] != "The first sentence is done. The second is not" {
		t.Fatalf("rest = %q, %v", got[choice0], err)
	}
}

func TestGateStopsBeforeHarmfulSegment(t *testing.T) {
	_, c := newServer(t)
	text := harmful + " After that we can talk about the weather. It is sunny."
	rng := rand.New(rand.NewPCG(3, 4))
	for _, how := range []string{"whole", "runes", "random"} {
		t.Run(how, func(t *testing.T) {
			g, err := c.NewGate(testContext(t), client.Chat)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			sendErr := make(chan error, 1)
			go func() {
				defer g.CloseSend()
				for _, p := range split(text, how, rng) {
					if err := g.Send(chatChunk(0, p)); err != nil {
						sendErr <- err
						return
					}
				}
				sendErr <- nil
			}()
			got, _, err := collect(t, g)
			var be *client.BlockedError
			if !errors.As(err, &be) {
				t.Fatalf("gate ended with %v, want a *BlockedError", err)
			}
			if got[choice0] != harmful[:harmfulCut] {
				t.Fatalf("released %d bytes, want the %d before the blocking segment", len(got[choice0]), harmfulCut)
			}
			b := be.Block
			if b.Item != choice0 || b.Start != harmfulCut || b.End != len(harmful)+1 || b.Category != client.Violence {
				t.Errorf("block = %+v", b)
			}
			// Recv keeps saying so.
			if _, err := g.Recv(); !errors.As(err, &be) {
				t.Errorf("second Recv: %v", err)
			}
			// The producer learns it from Send (unless it sent everything first).
			if err := <-sendErr; err != nil && !errors.As(err, &be) {
				t.Errorf("Send: %v", err)
			}
			v := g.Verdict()
			if !v.Blocked || v.Block == nil || *v.Block != b {
				t.Errorf("verdict block = %v", v.Block)
			}
			ch := v.Choice(0)
			if cf := ch.ContentFilterResults(); !cf.Violence.Filtered || ch.FinishReason("stop") != client.FinishReasonContentFilter {
				t.Errorf("choice 0: violence %+v, finish %q", cf.Violence, ch.FinishReason("stop"))
			}
			if ch.ChatError().Error != client.CompletionBlockedMessage {
				t.Errorf("chat error %q", ch.ChatError().Error)
			}
		})
	}
}

// TestGateLongAnswer streams answers of about 13 KB, long enough that the
// gate and the service both let go of text already released or analyzed
// several times over: every byte is still released once, in order, and a
// harmful sentence at the end stops the release exactly where it starts.
func TestGateLongAnswer(t *testing.T) {
	_, c := newServer(t)
	long := strings.Repeat(benignAnswer+" ", 60)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tail := range []string{"", harmful[harmfulCut:]} {
		t.Run(fmt.Sprint("harmful=", tail != ""), func(t *testing.T) {
			g, err := c.NewGate(testContext(t), client.Chat)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			text := long + tail
			go func() {
				defer g.CloseSend()
				for _, p := range split(text, "random", rng) {
					if err := g.Send(chatChunk(0, p)); err != nil {
						return
					}
				}
			}()
			got, unchecked, err := collect(t, g)
			if tail == "" {
				if err != nil || got[choice0] != text || unchecked {
					t.Fatalf("released %d of %d bytes, unchecked=%v, err %v", len(got[choice0]), len(text), unchecked, err)
				}
				return
			}
			var be *client.BlockedError
			if !errors.As(err, &be) || be.Block.Start != len(long) || got[choice0] != long {
				t.Fatalf("released %d bytes, want %d; err %v", len(got[choice0]), len(long), err)
			}
		})
	}
}

// TestGateTwoChoices: interleaved chunks of two choices are kept apart and
// released per choice.
func TestGateTwoChoices(t *testing.T) {
	_, c := newServer(t)
	g, err := c.NewGate(testContext(t), client.Chat)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	a, b := "Blue is calm. Green is fresh.", "Cats purr. Dogs bark loudly."
	go func() {
		defer g.CloseSend()
		for i := range max(len(a), len(b)) {
			if i < len(a) && g.Send(chatChunk(0, a[i:i+1])) != nil {
				return
			}
			if i < len(b) && g.Send(chatChunk(1, b[i:i+1])) != nil {
				return
			}
		}
	}()
	got, _, err := collect(t, g)
	if err != nil {
		t.Fatal(err)
	}
	choice1 := client.Item{Source: client.Completion, MessageID: "1"}
	if got[choice0] != a || got[choice1] != b {
		t.Fatalf("choice 0: %d of %d bytes, choice 1: %d of %d", len(got[choice0]), len(a), len(got[choice1]), len(b))
	}
}

// TestGateRealtimeDoneEvents: Realtime done events repeat the streamed text;
// the gate keeps the item's text as the service does, so it is released
// once and the offsets agree.
func TestGateRealtimeDoneEvents(t *testing.T) {
	_, c := newServer(t)
	g, err := c.NewGate(testContext(t), client.Realtime)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	text := "Good morning. The forecast says rain, so take an umbrella."
	events := []string{`{"type":"response.output_item.added","response_id":"resp_1","output_index":0,` +
		`"item":{"id":"item_1","type":"message","role":"assistant","content":[]}}`}
	for _, w := range strings.SplitAfter(text, " ") {
		events = append(events, `{"type":"response.output_text.delta","response_id":"resp_1","item_id":"item_1","output_index":0,"content_index":0,"delta":`+quote(w)+`}`)
	}
	events = append(events, `{"type":"response.output_text.done","response_id":"resp_1","item_id":"item_1","output_index":0,"content_index":0,"text":`+quote(text)+`}`)
	for _, e := range events {
		if err := g.Send([]byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.CloseSend(); err != nil {
		t.Fatal(err)
	}
	got, _, err := collect(t, g)
	if err != nil {
		t.Fatal(err)
	}
	item := client.Item{Source: client.Completion, MessageID: "6resp_16item_1", ContentIndex: 0}
	if got[item] != text || len(got) != 1 {
		t.Fatalf("released %d items; %v: %d of %d bytes", len(got), item, len(got[item]), len(text))
	}
}

func TestGateRejectsBadChunk(t *testing.T) {
	_, c := newServer(t)
	g, err := c.NewGate(testContext(t), client.Chat)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.Send([]byte(`{"choices": [`)); !errors.Is(err, client.ErrRejected) {
		t.Fatalf("Send(bad) = %v, want ErrRejected", err)
	}
	// The gate goes on.
	if err := g.Send(chatChunk(0, "Still fine.")); err != nil {
		t.Fatal(err)
	}
	g.CloseSend()
	got, _, err := collect(t, g)
	if err != nil || got[choice0] != "Still fine." {
		t.Fatalf("got %q, %v", got[choice0], err)
	}
}

func TestGateFailModeServerDiesMidStream(t *testing.T) {
	for _, mode := range []client.FailMode{client.FailClosed, client.FailOpen} {
		t.Run(mode.String(), func(t *testing.T) {
			p, c := newServer(t, client.WithFailMode(mode))
			g, err := c.NewGate(testContext(t), client.Chat)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			if err := g.Send(chatChunk(0, "One sentence. Two")); err != nil {
				t.Fatal(err)
			}
			r, err := g.Recv()
			if err != nil || r.Text != "One sentence. " {
				t.Fatalf("Recv = %+v, %v", r, err)
			}
			p.stop()
			// Wait until the gate has seen the stream end.
			for range 1000 {
				if g.Verdict().Unavailable {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			sendErr := g.Send(chatChunk(0, " three."))
			g.CloseSend()
			got, unchecked, err := collectFrom(t, g, map[client.Item]string{choice0: r.Text})
			v := g.Verdict()
			if !v.Unavailable || !errors.Is(v.Cause, client.ErrUnavailable) {
				t.Fatalf("verdict unavailable=%v cause=%v", v.Unavailable, v.Cause)
			}
			switch mode {
			case client.FailClosed:
				if ch := v.Choice(0); !ch.Blocked || ch.HTTPStatus() != 500 || ch.ContentFilterResults().Error == nil {
					t.Errorf("choice 0 of an unanswered verdict: blocked=%v status=%d", ch.Blocked, ch.HTTPStatus())
				}
				if !errors.Is(err, client.ErrUnavailable) || !errors.Is(sendErr, client.ErrUnavailable) || got[choice0] != "One sentence. " || !v.Blocked {
					t.Fatalf("recv err %v, send err %v, released %q, blocked %v", err, sendErr, got[choice0], v.Blocked)
				}
			case client.FailOpen:
				if ch := v.Choice(0); ch.Blocked || ch.HTTPStatus() != 200 {
					t.Errorf("choice 0 of a failed-open verdict: blocked=%v status=%d", ch.Blocked, ch.HTTPStatus())
				}
				if err != nil || sendErr != nil || got[choice0] != "One sentence. Two three." || !unchecked || v.Blocked {
					t.Fatalf("recv err %v, send err %v, released %q (unchecked %v), blocked %v", err, sendErr, got[choice0], unchecked, v.Blocked)
				}
			}
		})
	}
}

func TestGateFailModeServerDown(t *testing.T) {
	addr := deadAddr(t)
	for _, mode := range []client.FailMode{client.FailClosed, client.FailOpen} {
		t.Run(mode.String(), func(t *testing.T) {
			c, err := client.Dial(addr, client.WithFailMode(mode))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			g, err := c.NewGate(testContext(t), client.Chat)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			sendErr := g.Send(chatChunk(0, "Hello there."))
			g.CloseSend()
			got, unchecked, err := collect(t, g)
			if mode == client.FailClosed {
				if !errors.Is(err, client.ErrUnavailable) || !errors.Is(sendErr, client.ErrUnavailable) || len(got) != 0 {
					t.Fatalf("recv err %v, send err %v, released %d items", err, sendErr, len(got))
				}
				return
			}
			if err != nil || sendErr != nil || got[choice0] != "Hello there." || !unchecked {
				t.Fatalf("recv err %v, send err %v, released %q unchecked=%v", err, sendErr, got[choice0], unchecked)
			}
		})
	}
}

func TestGateFailModeSlow(t *testing.T) {
	_, conn := startHang(t)
	for _, mode := range []client.FailMode{client.FailClosed, client.FailOpen} {
		t.Run(mode.String(), func(t *testing.T) {
			c := client.New(conn, client.WithFailMode(mode), client.WithTimeout(200*time.Millisecond))
			g, err := c.NewGate(testContext(t), client.Chat)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			if err := g.Send(chatChunk(0, "Hello there. How are you?")); err != nil {
				t.Fatal(err)
			}
			g.CloseSend()
			got, unchecked, err := collect(t, g)
			if mode == client.FailClosed {
				if !errors.Is(err, client.ErrUnavailable) || len(got) != 0 {
					t.Fatalf("recv err %v, released %d items", err, len(got))
				}
				return
			}
			if err != nil || got[choice0] != "Hello there. How are you?" || !unchecked {
				t.Fatalf("recv err %v, released %q unchecked=%v", err, got[choice0], unchecked)
			}
		})
	}
}

func TestGateClose(t *testing.T) {
	_, c := newServer(t)
	g, err := c.NewGate(testContext(t), client.Chat)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Send(chatChunk(0, "Unfinished")); err != nil {
		t.Fatal(err)
	}
	g.Close()
	g.Close()
	if _, err := g.Recv(); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Recv after Close: %v", err)
	}
	if err := g.Send(chatChunk(0, " more")); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Send after Close: %v", err)
	}
}

// TestGateCallerCancel: the caller's context ending is not the service's
// failure; FailOpen must not release unchecked text for it.
func TestGateCallerCancel(t *testing.T) {
	_, conn := startHang(t)
	c := client.New(conn, client.WithFailMode(client.FailOpen))
	ctx, cancel := context.WithCancel(testContext(t))
	g, err := c.NewGate(ctx, client.Chat)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.Send(chatChunk(0, "Hello there.")); err != nil {
		t.Fatal(err)
	}
	cancel()
	got, _, err := collect(t, g)
	if !errors.Is(err, context.Canceled) || len(got) != 0 {
		t.Fatalf("recv err %v, released %d items", err, len(got))
	}
}

// TestGateCompletions: legacy completions chunks (choices[k].text).
func TestGateCompletions(t *testing.T) {
	_, c := newServer(t)
	g, err := c.NewGate(testContext(t), client.Completions)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	text := "This is indeed a test. Nothing more to say."
	go func() {
		defer g.CloseSend()
		for _, w := range strings.SplitAfter(text, " ") {
			chunk := `{"id":"cmpl-1","object":"text_completion","choices":[{"text":` + quote(w) + `,"index":0,"logprobs":null,"finish_reason":null}]}`
			if g.Send([]byte(chunk)) != nil {
				return
			}
		}
	}()
	got, _, err := collect(t, g)
	if err != nil || got[choice0] != text {
		t.Fatalf("released %q, %v", got[choice0], err)
	}
}

// stuckService accepts streams and never reads them: its flow-control
// window fills and the client's sends block.
type stuckService struct {
	raiv1.UnimplementedAnalysisServiceServer
}

func (stuckService) Analyze(stream raiv1.AnalysisService_AnalyzeServer) error {
	<-stream.Context().Done()
	return stream.Context().Err()
}

// TestGateSendTimeout: a Send the transport does not take within the
// timeout makes the service unavailable.
func TestGateSendTimeout(t *testing.T) {
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	raiv1.RegisterAnalysisServiceServer(gs, stuckService{})
	go gs.Serve(lis)
	conn, err := grpc.NewClient("passthrough:///stuck",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { conn.Close(); gs.Stop() }()

	c := client.New(conn, client.WithTimeout(300*time.Millisecond))
	g, err := c.NewGate(testContext(t), client.Chat)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	chunk := chatChunk(0, strings.Repeat("word ", 50_000)) // 250 kB
	sends := 0
	for ; sends < 200; sends++ {
		if err = g.Send(chunk); err != nil {
			break
		}
	}
	if !errors.Is(err, client.ErrUnavailable) {
		t.Fatalf("after %d sends: %v, want ErrUnavailable", sends, err)
	}
	if _, err := g.Recv(); !errors.Is(err, client.ErrUnavailable) {
		t.Fatalf("Recv: %v", err)
	}
}

// TestGateImageStream: image stream events carry no text; the gate releases
// nothing, ends cleanly, and the verdict says the content was not analyzed.
func TestGateImageStream(t *testing.T) {
	_, c := newServer(t)
	g, err := c.NewGate(testContext(t), client.Images)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, e := range []string{
		`{"type":"image_generation.partial_image","b64_json":"AAAA","partial_image_index":0}`,
		`{"type":"image_generation.completed","b64_json":"AAAA","usage":{"total_tokens":10}}`,
	} {
		if err := g.Send([]byte(e)); err != nil {
			t.Fatal(err)
		}
	}
	g.CloseSend()
	got, _, err := collect(t, g)
	if err != nil || len(got) != 0 {
		t.Fatalf("released %d items, %v", len(got), err)
	}
	if v := g.Verdict(); v.Blocked || !v.NoModel() {
		t.Errorf("verdict blocked=%v noModel=%v", v.Blocked, v.NoModel())
	}
}
