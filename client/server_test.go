package client_test

import (
	"context"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/client"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
	"github.com/openrai/raiserver/server"
)

var (
	clsOnce sync.Once
	cls     classifiers.Classifier
	clsErr  error
)

// defaultAnalyzer is the analyzer the server runs on its embedded defaults.
func defaultAnalyzer() (*analyzer.Analyzer, error) {
	clsOnce.Do(func() { cls, clsErr = ensemble.Default() })
	if clsErr != nil {
		return nil, clsErr
	}
	return analyzer.New(cls)
}

// inProcess is the real server on an in-memory listener.
type inProcess struct {
	srv  *server.Server
	lis  *bufconn.Listener
	conn *grpc.ClientConn
}

// startInProcess serves the real service (embedded classifiers) on a
// bufconn listener and connects to it.
func startInProcess() (*inProcess, error) {
	a, err := defaultAnalyzer()
	if err != nil {
		return nil, err
	}
	p := &inProcess{srv: server.NewServer(a), lis: bufconn.Listen(1 << 20)}
	go p.srv.Serve(p.lis)
	p.conn, err = grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return p.lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		p.srv.Shutdown(0)
		return nil, err
	}
	return p, nil
}

// stop shuts the server down; streams still open end with UNAVAILABLE.
func (p *inProcess) stop() {
	p.srv.Shutdown(0)
}

func (p *inProcess) close() {
	p.conn.Close()
	p.stop()
}

// newServer starts an in-process server for the test and returns a Client
// on it with opts.
func newServer(t *testing.T, opts ...client.Option) (*inProcess, *client.Client) {
	t.Helper()
	p, err := startInProcess()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.close)
	return p, client.New(p.conn, opts...)
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// hangService accepts streams and never answers: a service that is up but
// too slow. It counts the requests it received.
type hangService struct {
	raiv1.UnimplementedAnalysisServiceServer
	requests atomic.Int64
}

func (h *hangService) Analyze(stream raiv1.AnalysisService_AnalyzeServer) error {
	for {
		if _, err := stream.Recv(); err != nil {
			<-stream.Context().Done()
			return stream.Context().Err()
		}
		h.requests.Add(1)
	}
}

// startHang serves a hangService on bufconn and returns a connection to it.
func startHang(t *testing.T) (*hangService, *grpc.ClientConn) {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer()
	h := &hangService{}
	raiv1.RegisterAnalysisServiceServer(gs, h)
	go gs.Serve(lis)
	conn, err := grpc.NewClient("passthrough:///hang",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(); gs.Stop() })
	return h, conn
}

// deadAddr returns a loopback address on which nothing listens.
func deadAddr(t *testing.T) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	return addr
}
