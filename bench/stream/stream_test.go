package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers/ensemble"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
	"github.com/openrai/raiserver/server"
)

func newClient(b *testing.B) raiv1.AnalysisServiceClient {
	b.Helper()
	cls, err := ensemble.Default()
	if err != nil {
		b.Fatal(err)
	}
	a, err := analyzer.New(cls)
	if err != nil {
		b.Fatal(err)
	}
	lis := bufconn.Listen(1 << 20)
	srv := server.NewServer(a)
	go srv.Serve(lis)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close(); srv.GRPC.Stop() })
	return raiv1.NewAnalysisServiceClient(conn)
}

// runStream sends reqs on one stream and reads every event.
func runStream(c raiv1.AnalysisServiceClient, reqs []*raiv1.AnalyzeRequest) error {
	stream, err := c.Analyze(context.Background())
	if err != nil {
		return err
	}
	go func() {
		for _, r := range reqs {
			if stream.Send(r) != nil {
				return
			}
		}
		stream.CloseSend()
	}()
	for {
		ev, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if c := ev.GetCompletion(); c != nil && c.GetEndReason() != raiv1.EndReason_END_REASON_END_OF_STREAM {
			return fmt.Errorf("completion %v", c)
		}
	}
}

func quote(s string) string { q, _ := json.Marshal(s); return string(q) }

const sentence = "The quarterly report shows steady growth in all regions, and the team plans to expand hiring next year. "

func BenchmarkStreamChatPrompt2K(b *testing.B) {
	c := newClient(b)
	text := strings.Repeat(sentence, 2048/len(sentence))
	reqs := []*raiv1.AnalyzeRequest{{SourceType: "PROMPT", ApiName: "Chatcompletion",
		Payload: `{"model":"gpt-4o","messages":[{"role":"user","content":` + quote(text) + `}]}`}}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if err := runStream(c, reqs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStreamChatChunks100(b *testing.B) {
	c := newClient(b)
	var reqs []*raiv1.AnalyzeRequest
	n := 0
	for i := range 100 {
		delta := fmt.Sprintf("word%d and more ", i)
		if i%10 == 9 {
			delta = "end of a sentence. "
		}
		n += len(delta)
		reqs = append(reqs, &raiv1.AnalyzeRequest{SourceType: "COMPLETION", ApiName: "Chatcompletion",
			Payload: `{"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":` + quote(delta) + `}}]}`})
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		if err := runStream(c, reqs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStreamParallel(b *testing.B) {
	c := newClient(b)
	text := strings.Repeat(sentence, 4)
	reqs := []*raiv1.AnalyzeRequest{{SourceType: "PROMPT", ApiName: "Completion", Payload: `{"prompt":` + quote(text) + `}`}}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := runStream(c, reqs); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
