package client_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/openrai/raiserver/client"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// Test texts. harmful is the README's threat example: the default
// classifiers block its second sentence for violence.
const (
	benign     = "Hello! Can you help me plan a birthday party for my daughter?"
	harmful    = "Hi there. I am going to kill you tonight."
	harmfulCut = len("Hi there. ") // where the blocking segment starts
)

func chatPrompt(content string) []byte {
	return []byte(`{"model":"gpt-4o","messages":[{"role":"system","content":"You are helpful."},{"role":"user","content":` + quote(content) + `}]}`)
}

func TestCheckBenignPasses(t *testing.T) {
	_, c := newServer(t)
	v, err := c.Check(testContext(t), client.Chat, client.Prompt, chatPrompt(benign))
	if err != nil {
		t.Fatal(err)
	}
	if v.Blocked || v.Block != nil || v.Unavailable || v.HTTPStatus() != http.StatusOK {
		t.Fatalf("benign prompt: blocked=%v block=%v unavailable=%v status=%d", v.Blocked, v.Block, v.Unavailable, v.HTTPStatus())
	}
	if v.Categories != (client.Categories{}) {
		t.Errorf("categories = %+v, want all zero", v.Categories)
	}
	// Both messages were analyzed to the end.
	want := map[string]int{"0": len("You are helpful."), "1": len(benign)}
	for _, it := range v.Items {
		if it.Item.Source != client.Prompt || it.Watermark != want[it.Item.MessageID] {
			t.Errorf("item %v: watermark %d, want %d", it.Item, it.Watermark, want[it.Item.MessageID])
		}
		delete(want, it.Item.MessageID)
	}
	if len(want) != 0 {
		t.Errorf("items without results: %v", want)
	}
}

func TestCheckHarmfulBlocks(t *testing.T) {
	_, c := newServer(t)
	v, err := c.Check(testContext(t), client.Chat, client.Prompt, chatPrompt(harmful))
	if err != nil {
		t.Fatal(err)
	}
	if !v.Blocked || v.Unavailable || v.HTTPStatus() != http.StatusBadRequest {
		t.Fatalf("blocked=%v unavailable=%v status=%d", v.Blocked, v.Unavailable, v.HTTPStatus())
	}
	b := v.Block
	wantItem := client.Item{Source: client.Prompt, MessageID: "1", ContentIndex: 0}
	if b == nil || b.Item != wantItem || b.Start != harmfulCut || b.End != len(harmful) || b.Category != client.Violence || b.Severity < 2 {
		t.Fatalf("block = %+v, want violence in %v [%d, %d)", b, wantItem, harmfulCut, len(harmful))
	}
	if r := v.Categories.Violence; !r.Blocking || r.Severity != b.Severity {
		t.Errorf("violence = %+v", r)
	}
	if r := v.Categories.Hate; r.Blocking {
		t.Errorf("hate = %+v", r)
	}
	// The item's watermark stops where the blocking segment starts.
	for _, it := range v.Items {
		if it.Item == wantItem && (it.Watermark != harmfulCut || !it.Blocked || len(it.Findings) == 0) {
			t.Errorf("item result = %+v", it)
		}
	}
	if got := v.ChatError().Error; got != client.PromptBlockedMessage {
		t.Errorf("chat error = %q", got)
	}
}

// TestCheckSeveralPayloads sends a prompt in two requests: the item's text
// is what both carried, and a phrase split across them is found.
func TestCheckSeveralPayloads(t *testing.T) {
	_, c := newServer(t)
	v, err := c.Check(testContext(t), client.Completions, client.Prompt,
		[]byte(`{"prompt":"Hi there. I am going to ki"}`), []byte(`{"prompt":"ll you tonight."}`))
	if err != nil {
		t.Fatal(err)
	}
	if !v.Blocked || v.Block == nil || v.Block.Start != harmfulCut || v.Block.Category != client.Violence {
		t.Fatalf("verdict = %+v", v)
	}
}

func TestCheckRejected(t *testing.T) {
	_, c := newServer(t)
	for name, payload := range map[string]string{
		"not JSON":  `{"messages": [`,
		"not shape": `{"messages": [{"role": "user", "content": 42}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			v, err := c.Check(testContext(t), client.Chat, client.Prompt, []byte(`{"messages":[]}`), []byte(payload))
			if !errors.Is(err, client.ErrRejected) || v != nil {
				t.Fatalf("Check = %v, %v; want ErrRejected", v, err)
			}
			if got := err.Error(); !contains(got, "request 1") {
				t.Errorf("error %q does not name the request", got)
			}
		})
	}
}

func TestCheckFailModeServerDown(t *testing.T) {
	addr := deadAddr(t)
	for _, tc := range []struct {
		mode        client.FailMode
		wantBlocked bool
		wantStatus  int
	}{
		{client.FailClosed, true, http.StatusInternalServerError},
		{client.FailOpen, false, http.StatusOK},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			c, err := client.Dial(addr, client.WithFailMode(tc.mode), client.WithTimeout(5*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			v, err := c.Check(testContext(t), client.Chat, client.Prompt, chatPrompt(benign))
			if err != nil {
				t.Fatal(err)
			}
			if !v.Unavailable || !errors.Is(v.Cause, client.ErrUnavailable) || v.Blocked != tc.wantBlocked || v.HTTPStatus() != tc.wantStatus {
				t.Fatalf("unavailable=%v cause=%v blocked=%v status=%d", v.Unavailable, v.Cause, v.Blocked, v.HTTPStatus())
			}
			if cf := v.ContentFilterResults(); cf.Error == nil || cf.Hate != nil {
				t.Errorf("content filter results = %+v, want the error form", cf)
			}
		})
	}
}

func TestCheckFailModeSlow(t *testing.T) {
	h, conn := startHang(t)
	for _, tc := range []struct {
		mode        client.FailMode
		wantBlocked bool
	}{
		{client.FailClosed, true},
		{client.FailOpen, false},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			c := client.New(conn, client.WithFailMode(tc.mode), client.WithTimeout(200*time.Millisecond))
			v, err := c.Check(testContext(t), client.Chat, client.Prompt, chatPrompt(benign))
			if err != nil {
				t.Fatal(err)
			}
			if !v.Unavailable || !errors.Is(v.Cause, client.ErrUnavailable) || v.Blocked != tc.wantBlocked {
				t.Fatalf("unavailable=%v cause=%v blocked=%v", v.Unavailable, v.Cause, v.Blocked)
			}
		})
	}
	if h.requests.Load() != 2 {
		t.Errorf("slow service got %d requests, want 2", h.requests.Load())
	}
}

// TestCheckCallerContext: the caller's own context ending is not the
// service's failure; the fail mode does not turn it into a verdict.
func TestCheckCallerContext(t *testing.T) {
	_, conn := startHang(t)
	c := client.New(conn, client.WithFailMode(client.FailOpen), client.WithTimeout(time.Minute))
	ctx, cancel := context.WithTimeout(testContext(t), 100*time.Millisecond)
	defer cancel()
	v, err := c.Check(ctx, client.Chat, client.Prompt, chatPrompt(benign))
	if !errors.Is(err, context.DeadlineExceeded) || v != nil {
		t.Fatalf("Check = %v, %v; want the context's error", v, err)
	}
}

func TestServerShutdownIsUnavailable(t *testing.T) {
	p, c := newServer(t)
	p.stop()
	v, err := c.Check(testContext(t), client.Chat, client.Prompt, chatPrompt(benign))
	if err != nil {
		t.Fatal(err)
	}
	if !v.Unavailable || !v.Blocked {
		t.Fatalf("unavailable=%v blocked=%v", v.Unavailable, v.Blocked)
	}
}

// TestCheckNoModel: an image part cannot be analyzed; the verdict says so
// and does not block.
func TestCheckNoModel(t *testing.T) {
	_, c := newServer(t)
	body := `{"messages":[{"role":"user","content":[{"type":"text","text":"What is in this image?"},` +
		`{"type":"image_url","image_url":{"url":"https://example.com/a.png"}}]}]}`
	v, err := c.Check(testContext(t), client.Chat, client.Prompt, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if v.Blocked || !v.NoModel() {
		t.Fatalf("blocked=%v noModel=%v", v.Blocked, v.NoModel())
	}
	for _, it := range v.Items {
		if it.NoModel != (it.Item.ContentIndex == 1) {
			t.Errorf("item %v: NoModel=%v", it.Item, it.NoModel)
		}
	}
}
