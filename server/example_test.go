package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
	"github.com/openrai/raiserver/server"
)

// exampleClassifier flags one made-up word as VIOLENCE severity 4.
type exampleClassifier struct{}

func (exampleClassifier) Classify(dst []classifiers.Finding, text []byte) []classifiers.Finding {
	if i := bytes.Index(text, []byte("zap")); i >= 0 {
		dst = append(dst, classifiers.Finding{Category: classifiers.Violence, Severity: 4, Start: i, End: i + 3})
	}
	return dst
}

// A stream transcript: a streamed chat completion in three chunks. The first
// sentence is released by a watermark; the second blocks, so the watermark
// stops at its start; half-close flushes the rest and ends the stream.
func Example_transcript() {
	a, _ := analyzer.New(exampleClassifier{}, analyzer.WithCategory(classifiers.Hate, analyzer.CategoryConfig{}),
		analyzer.WithCategory(classifiers.Sexual, analyzer.CategoryConfig{}),
		analyzer.WithCategory(classifiers.SelfHarm, analyzer.CategoryConfig{}))
	lis := bufconn.Listen(1 << 16)
	srv := server.NewServer(a)
	go srv.Serve(lis)
	defer srv.GRPC.Stop()
	conn, _ := grpc.NewClient("passthrough:///example",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	defer conn.Close()

	stream, _ := raiv1.NewAnalysisServiceClient(conn).Analyze(context.Background())
	for _, delta := range []string{"Hello there. ", "We zap ", "them now."} {
		stream.Send(&raiv1.AnalyzeRequest{SourceType: "COMPLETION", ApiName: "Chatcompletion",
			Payload: `{"choices":[{"index":0,"delta":{"content":"` + delta + `"}}]}`})
	}
	stream.CloseSend()
	for {
		ev, err := stream.Recv()
		if err == io.EOF {
			break
		}
		b, _ := protojson.Marshal(ev)
		var out bytes.Buffer
		json.Compact(&out, b)
		fmt.Println(out.String())
	}
	// Output:
	// {"watermark":{"sourceType":"COMPLETION","messageId":"0","contentIndex":0,"offset":13}}
	// {"analysisResult":{"offset":{"sourceType":"COMPLETION","messageId":"0","contentIndex":0,"startOffset":13,"endOffset":29},"harmCategoryTaskResults":[{"result":"OK","isBlocking":true,"kind":"HARM_CATEGORY","harmCategoryTaskResult":{"harmCategory":"VIOLENCE","isDetected":true,"severity":4,"riskLevel":"HIGH"}}]}}
	// {"completion":{"end_reason":"END_REASON_END_OF_STREAM","error_description":""}}
}
