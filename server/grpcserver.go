package server

import (
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	"github.com/openrai/raiserver/analyzer"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// Server is the complete gRPC server: the analysis service, gRPC server
// reflection (grpcurl and ghz use it) and the standard grpc.health.v1 service.
type Server struct {
	GRPC    *grpc.Server
	Service *Service
	Health  *health.Server
}

// NewServer builds a Server around a.
//
// The transport's receive limit is well above the analyzer's payload limit
// (TransportLimit), so that an oversized payload gets the analyzer's clear
// error: an INVALID_ARGUMENT Completion naming the request, after everything
// earlier. Only a message over the transport limit is refused by grpc-go
// itself, which ends the stream with RESOURCE_EXHAUSTED and no Completion.
//
// The connection limits of Limits (streams per connection, keepalive,
// connection age) are set on the grpc.Server here; options from
// WithGRPCOptions come after them.
func NewServer(a *analyzer.Analyzer, opts ...Option) *Server {
	o := defaultOptions()
	for _, f := range opts {
		f(&o)
	}
	svc := newService(a, &o)
	l := o.limits
	gopts := []grpc.ServerOption{
		grpc.MaxRecvMsgSize(TransportLimit(a.MaxPayloadBytes())),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{
			MinTime:             l.KeepaliveMinTime,
			PermitWithoutStream: l.KeepalivePermitWithoutStream,
		}),
		grpc.KeepaliveParams(keepalive.ServerParameters{
			Time:                  l.KeepaliveTime,
			Timeout:               l.KeepaliveTimeout,
			MaxConnectionAge:      l.MaxConnectionAge,
			MaxConnectionAgeGrace: l.MaxConnectionAgeGrace,
		}),
	}
	if l.MaxStreamsPerConn > 0 {
		gopts = append(gopts, grpc.MaxConcurrentStreams(l.MaxStreamsPerConn))
	}
	gs := grpc.NewServer(append(gopts, o.grpcOpts...)...)
	svc.Register(gs)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(gs, hs)
	hs.SetServingStatus(raiv1.AnalysisService_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	reflection.Register(gs)
	return &Server{GRPC: gs, Service: svc, Health: hs}
}

// Serve serves on lis until Shutdown.
func (s *Server) Serve(lis net.Listener) error { return s.GRPC.Serve(lis) }

// Shutdown reports NOT_SERVING, stops accepting streams and lets open ones
// finish until drain has passed; streams still open then end with a SHUTDOWN
// Completion and status UNAVAILABLE. It returns when every stream has ended.
func (s *Server) Shutdown(drain time.Duration) {
	s.Health.Shutdown()
	done := make(chan struct{})
	go func() { s.GRPC.GracefulStop(); close(done) }()
	timer := time.NewTimer(drain)
	defer timer.Stop()
	select {
	case <-done:
		return
	case <-timer.C:
	}
	s.Service.Drain()
	hard := time.NewTimer(5 * time.Second)
	defer hard.Stop()
	select {
	case <-done:
	case <-hard.C:
		s.GRPC.Stop()
		<-done
	}
}

// TransportLimit is the gRPC receive message limit for a payload limit:
// four times the payload limit plus 1 MiB, and at least 16 MiB.
func TransportLimit(maxPayload int) int {
	return max(4*maxPayload+1<<20, 16<<20)
}
