package client_test

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
	"google.golang.org/grpc"

	"github.com/openrai/raiserver/client"
	"github.com/openrai/raiserver/server"
)

// dnsServer answers every A question with addrs and every other question
// with no records, over UDP on a loopback port: enough for gRPC's dns
// resolver when the target names it as the authority
// (dns://127.0.0.1:PORT/name:port).
func dnsServer(t *testing.T, addrs ...netip.Addr) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { pc.Close(); <-done })
	go func() {
		defer close(done)
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			var p dnsmessage.Parser
			h, err := p.Start(buf[:n])
			if err != nil {
				continue
			}
			q, err := p.Question()
			if err != nil {
				continue
			}
			b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true})
			b.EnableCompression()
			_ = b.StartQuestions()
			_ = b.Question(q)
			_ = b.StartAnswers()
			if q.Type == dnsmessage.TypeA {
				for _, a := range addrs {
					_ = b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60}, dnsmessage.AResource{A: a.As4()})
				}
			}
			msg, err := b.Finish()
			if err != nil {
				continue
			}
			_, _ = pc.WriteTo(msg, from)
		}
	}()
	return pc.LocalAddr().String()
}

// countingServer serves the real service on lis and counts its streams.
func countingServer(t *testing.T, lis net.Listener) *atomic.Int64 {
	t.Helper()
	a, err := defaultAnalyzer()
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	gs := grpc.NewServer(grpc.StreamInterceptor(func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
		n.Add(1)
		return h(srv, ss)
	}))
	server.New(a).Register(gs)
	go gs.Serve(lis)
	t.Cleanup(gs.Stop)
	return &n
}

// listenPair listens on 127.0.0.1 and 127.0.0.2 on one port.
func listenPair(t *testing.T) (net.Listener, net.Listener) {
	t.Helper()
	for range 20 {
		l1, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		l2, err := net.Listen("tcp", fmt.Sprintf("127.0.0.2:%d", l1.Addr().(*net.TCPAddr).Port))
		if err == nil {
			return l1, l2
		}
		l1.Close()
		if errors.Is(err, syscall.EADDRNOTAVAIL) {
			t.Skipf("127.0.0.2 is not usable here: %v", err)
		}
	}
	t.Skip("no port free on both 127.0.0.1 and 127.0.0.2")
	return nil, nil
}

// TestDialRoundRobin: a dns:/// target whose name resolves to two servers
// spreads streams over both.
func TestDialRoundRobin(t *testing.T) {
	l1, l2 := listenPair(t)
	n1, n2 := countingServer(t, l1), countingServer(t, l2)
	ns := dnsServer(t, netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("127.0.0.2"))
	port := l1.Addr().(*net.TCPAddr).Port

	c, err := client.Dial(fmt.Sprintf("dns://%s/raiserver.test:%d", ns, port), client.WithTimeout(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := testContext(t)
	checks := 0
	for ; checks < 200 && (n1.Load() == 0 || n2.Load() == 0); checks++ {
		v, err := c.Check(ctx, client.Chat, client.Prompt, chatPrompt(benign))
		if err != nil || v.Unavailable || v.Blocked {
			t.Fatalf("check %d: %v (unavailable=%v blocked=%v cause=%v)", checks, err, v != nil && v.Unavailable, v != nil && v.Blocked, v.Cause)
		}
	}
	if n1.Load() == 0 || n2.Load() == 0 {
		t.Fatalf("after %d checks: 127.0.0.1 served %d streams, 127.0.0.2 served %d", checks, n1.Load(), n2.Load())
	}
	// Once both are ready, round_robin alternates.
	before1, before2 := n1.Load(), n2.Load()
	for range 10 {
		if _, err := c.Check(ctx, client.Chat, client.Prompt, chatPrompt(benign)); err != nil {
			t.Fatal(err)
		}
	}
	if d1, d2 := n1.Load()-before1, n2.Load()-before2; d1 != 5 || d2 != 5 {
		t.Errorf("10 checks with both servers ready: %d and %d streams, want 5 and 5", d1, d2)
	}
}
