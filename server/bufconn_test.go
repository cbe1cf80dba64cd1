package server

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/openrai/raiserver/analyzer"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

type bufServer struct {
	client raiv1.AnalysisServiceClient
}

// startBufconn serves a on an in-memory listener until the test ends.
func startBufconn(t *testing.T, a *analyzer.Analyzer) *bufServer {
	t.Helper()
	return startBufconnWith(t, a)
}

// startBufconnWith is startBufconn with server options.
func startBufconnWith(t *testing.T, a *analyzer.Analyzer, opts ...Option) *bufServer {
	t.Helper()
	lis := bufconn.Listen(1 << 16)
	srv := NewServer(a, opts...)
	go srv.Serve(lis)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); srv.Shutdown(time.Second) })
	return &bufServer{client: raiv1.NewAnalysisServiceClient(conn)}
}

// roundTrip sends reqs on one stream, half-closes, and returns every event and the final status.
func (b *bufServer) roundTrip(reqs ...*raiv1.AnalyzeRequest) ([]*raiv1.AnalyzeResponse, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stream, err := b.client.Analyze(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range reqs {
		if err := stream.Send(r); err != nil {
			break
		}
	}
	stream.CloseSend()
	var evs []*raiv1.AnalyzeResponse
	for {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
}
