package main

import (
	"errors"
	"flag"
	"io"
	"log"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/reflection"

	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

type echo struct {
	raiv1.UnimplementedAnalysisServiceServer
}

// Analyze answers every request with one empty Watermark.
func (echo) Analyze(stream grpc.BidiStreamingServer[raiv1.AnalyzeRequest, raiv1.AnalyzeResponse]) error {
	resp := &raiv1.AnalyzeResponse{Event: &raiv1.AnalyzeResponse_Watermark{Watermark: &raiv1.Watermark{}}}
	for {
		if _, err := stream.Recv(); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if err := stream.Send(resp); err != nil {
			return err
		}
	}
}

func main() {
	addr := flag.String("listen", "127.0.0.1:50598", "address to listen on")
	flag.Parse()
	lis, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	s := grpc.NewServer()
	raiv1.RegisterAnalysisServiceServer(s, echo{})
	reflection.Register(s) // ghz reads the service from it, as from raiserver
	log.Fatal(s.Serve(lis))
}
