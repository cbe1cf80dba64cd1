package client_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/openrai/raiserver/client"
)

// BenchmarkCheckChatPrompt: one Check of a short chat prompt against the
// real server over bufconn (stream set-up, analysis, verdict).
func BenchmarkCheckChatPrompt(b *testing.B) {
	p, err := startInProcess()
	if err != nil {
		b.Fatal(err)
	}
	defer p.close()
	c := client.New(p.conn)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	body := chatPrompt(benign)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		v, err := c.Check(ctx, client.Chat, client.Prompt, body)
		if err != nil || v.Blocked {
			b.Fatal(err)
		}
	}
}

// BenchmarkGateChatStream: a 4 kB answer streamed as 20-byte chat chunks
// through a Gate and read back in full.
func BenchmarkGateChatStream(b *testing.B) {
	p, err := startInProcess()
	if err != nil {
		b.Fatal(err)
	}
	defer p.close()
	c := client.New(p.conn)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	text := strings.Repeat("The party starts at noon. Bring a hat. ", 105)[:4000]
	var chunks [][]byte
	for i := 0; i < len(text); i += 20 {
		chunks = append(chunks, chatChunk(0, text[i:min(i+20, len(text))]))
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		g, err := c.NewGate(ctx, client.Chat)
		if err != nil {
			b.Fatal(err)
		}
		go func() {
			defer g.CloseSend()
			for _, ch := range chunks {
				if g.Send(ch) != nil {
					return
				}
			}
		}()
		n := 0
		for {
			r, err := g.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n += len(r.Text)
		}
		g.Close()
		if n != len(text) {
			b.Fatalf("released %d of %d bytes", n, len(text))
		}
	}
}
