// Command echo is the floor of the load test: a gRPC server with the
// service raiserver serves (rai.v1.AnalysisService/Analyze) that does
// nothing but the stream's work: it reads every request and answers each
// with one empty Watermark, and ends the stream when the client does. It
// parses no payload and classifies nothing, so ghz against it measures
// what gRPC, HTTP/2 and protobuf cost on this host; bench/ghz.sh runs the
// same scenarios against it with ECHO=1 and reports both servers' CPU
// time per stream.
//
//	go run ./bench/echo -listen 127.0.0.1:50598
//
// Dependencies: google.golang.org/grpc (with its server reflection, which
// ghz reads, as raiserver serves it) and the generated gen/rai/v1; no
// package of the service.
package main
