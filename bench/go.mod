// The benchmarks, the quality bench and their comparison library
// (github.com/TwiN/go-away) live in a module of their own, so that a program
// importing github.com/openrai/raiserver never has go-away in its module
// graph. The go.work at the repository root puts both modules in one
// workspace: `go run ./bench/quality` and `go test ./...` from the root reach
// them as before. Without the workspace the replace below finds the root.
module github.com/openrai/raiserver/bench

go 1.26.8

require (
	github.com/TwiN/go-away v1.6.13
	github.com/openrai/raiserver v0.0.0-00010101000000-000000000000
	go.uber.org/goleak v1.3.0
	google.golang.org/grpc v1.85.0
)

require (
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260928230214-8a89bd6388cc // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace github.com/openrai/raiserver => ../
