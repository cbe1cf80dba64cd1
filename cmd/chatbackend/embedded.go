package main

import (
	"errors"
	"log/slog"
	"net"
	"time"

	"google.golang.org/grpc"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers/ensemble"
	"github.com/openrai/raiserver/server"
)

// startEmbedded runs the analysis service with its embedded defaults on a
// loopback port of this process (--sidecar-embedded) and returns its
// address and a function that stops it.
func startEmbedded(log *slog.Logger) (addr string, stop func(), err error) {
	cls, err := ensemble.Default()
	if err != nil {
		return "", nil, err
	}
	a, err := analyzer.New(cls, analyzer.WithLogger(log))
	if err != nil {
		return "", nil, err
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := server.NewServer(a, server.WithLogger(log))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(lis); err != nil && !errors.Is(err, grpc.ErrServerStopped) {
			log.Error("embedded analysis service", "err", err)
		}
	}()
	log.Info("embedded analysis service", "addr", lis.Addr().String())
	return lis.Addr().String(), func() { srv.Shutdown(5 * time.Second); <-done }, nil
}
