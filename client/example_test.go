package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/openrai/raiserver/client"
	"github.com/openrai/raiserver/server"
)

// exampleClient starts the real service in process (embedded classifiers,
// in-memory listener) and returns a Client on it and a func that stops both.
func exampleClient(opts ...client.Option) (*client.Client, func()) {
	p, err := startInProcess()
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	return client.New(p.conn, opts...), p.close
}

func printJSON(v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(b))
}

// A prompt is checked before the model is called.
func ExampleClient_Check() {
	c, stop := exampleClient()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	for _, body := range []string{
		`{"model":"gpt-4o","messages":[{"role":"user","content":"Hello! Can you recommend a good book?"}]}`,
		`{"model":"gpt-4o","messages":[{"role":"user","content":"Hi there. I am going to kill you tonight."}]}`,
	} {
		v, err := c.Check(ctx, client.Chat, client.Prompt, []byte(body))
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("blocked:", v.Blocked, "status:", v.HTTPStatus())
		if v.Block != nil {
			fmt.Println("why:", v.Block)
		}
	}
	// Output:
	// blocked: false status: 200
	// blocked: true status: 400
	// why: violence severity 5 in PROMPT "0"/0 bytes [10, 41)
}

// A blocked prompt is answered with Azure OpenAI's 400 body.
func ExampleVerdict_AzureError() {
	c, stop := exampleClient()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	body := `{"messages":[{"role":"user","content":"Hi there. I am going to kill you tonight."}]}`
	v, err := c.Check(ctx, client.Chat, client.Prompt, []byte(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("HTTP", v.HTTPStatus())
	printJSON(v.AzureError())
	// Output:
	// HTTP 400
	// {
	//   "error": {
	//     "message": "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
	//     "type": null,
	//     "param": "prompt",
	//     "code": "content_filter",
	//     "status": 400,
	//     "innererror": {
	//       "code": "ResponsibleAIPolicyViolation",
	//       "content_filter_result": {
	//         "hate": {
	//           "filtered": false,
	//           "severity": "safe"
	//         },
	//         "self_harm": {
	//           "filtered": false,
	//           "severity": "safe"
	//         },
	//         "sexual": {
	//           "filtered": false,
	//           "severity": "safe"
	//         },
	//         "violence": {
	//           "filtered": true,
	//           "severity": "high"
	//         }
	//       }
	//     }
	//   }
	// }
}

// A blocked prompt is answered with the AI Chat Protocol's 400 body.
func ExampleVerdict_ChatError() {
	c, stop := exampleClient()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	body := `{"messages":[{"role":"user","content":"Hi there. I am going to kill you tonight."}]}`
	v, err := c.Check(ctx, client.Chat, client.Prompt, []byte(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("HTTP", v.HTTPStatus())
	printJSON(v.ChatError())
	// Output:
	// HTTP 400
	// {
	//   "error": "Your message contains content that was flagged by the content filter."
	// }
}

// A prompt that passes is annotated with prompt_filter_results, as Azure
// OpenAI annotates its responses.
func ExampleVerdict_PromptFilterResults() {
	c, stop := exampleClient()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	body := `{"messages":[{"role":"user","content":"Hello! Can you recommend a good book?"}]}`
	v, err := c.Check(ctx, client.Chat, client.Prompt, []byte(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	printJSON(map[string]any{"prompt_filter_results": v.PromptFilterResults()})
	// Output:
	// {
	//   "prompt_filter_results": [
	//     {
	//       "prompt_index": 0,
	//       "content_filter_results": {
	//         "hate": {
	//           "filtered": false,
	//           "severity": "safe"
	//         },
	//         "self_harm": {
	//           "filtered": false,
	//           "severity": "safe"
	//         },
	//         "sexual": {
	//           "filtered": false,
	//           "severity": "safe"
	//         },
	//         "violence": {
	//           "filtered": false,
	//           "severity": "safe"
	//         }
	//       }
	//     }
	//   ]
	// }
}

// A whole (non-streamed) model response is checked as COMPLETION; each
// choice gets its content_filter_results and, when blocked, finish_reason
// "content_filter".
func ExampleVerdict_Choice() {
	c, stop := exampleClient()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	resp := `{"object":"chat.completion","choices":[` +
		`{"index":0,"message":{"role":"assistant","content":"Paris is the capital of France."},"finish_reason":"stop"},` +
		`{"index":1,"message":{"role":"assistant","content":"Sure. I am going to kill you tonight."},"finish_reason":"stop"}]}`
	v, err := c.Check(ctx, client.Chat, client.Completion, []byte(resp))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range 2 {
		ch := v.Choice(i)
		cf := ch.ContentFilterResults()
		fmt.Printf("choice %d: finish_reason %q, violence %+v\n", i, ch.FinishReason("stop"), *cf.Violence)
	}
	// Output:
	// choice 0: finish_reason "stop", violence {Filtered:false Severity:safe}
	// choice 1: finish_reason "content_filter", violence {Filtered:true Severity:high}
}

// A Gate releases streamed model output only as far as the service has
// cleared it, and stops for good before a harmful segment.
func ExampleGate() {
	c, stop := exampleClient()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	g, err := c.NewGate(ctx, client.Chat)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()

	// The producer: the model's stream chunks, as the API sends them.
	go func() {
		defer g.CloseSend()
		for _, delta := range []string{"Sure. ", "Here it is", ": I am going ", "to kill you ", "tonight. Bye."} {
			chunk := fmt.Sprintf(`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":%q}}]}`, delta)
			if g.Send([]byte(chunk)) != nil {
				return // blocked: stop reading the model
			}
		}
	}()

	// The consumer: what may be shown to the user.
	var shown strings.Builder
	for {
		r, err := g.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		var blocked *client.BlockedError
		if errors.As(err, &blocked) {
			fmt.Printf("shown: %q\n", shown.String())
			fmt.Println("stopped:", blocked.Block)
			fmt.Println("finish_reason:", g.Verdict().Choice(0).FinishReason("stop"))
			return
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		shown.WriteString(r.Text) // write r.Text to the user now
	}
	fmt.Printf("shown: %q\n", shown.String())
	// Output:
	// shown: "Sure. "
	// stopped: violence severity 4 in COMPLETION "0"/0 bytes [6, 50)
	// finish_reason: content_filter
}

// When the service cannot be reached, the fail mode decides: FailClosed
// blocks (a backend answers 500), FailOpen lets the prompt pass, marked as
// not filtered.
func ExampleWithFailMode() {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	addr := lis.Addr().String()
	lis.Close() // nothing listens there now

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	body := []byte(`{"messages":[{"role":"user","content":"Hello!"}]}`)
	for _, mode := range []client.FailMode{client.FailClosed, client.FailOpen} {
		c, err := client.Dial(addr, client.WithFailMode(mode), client.WithTimeout(2*time.Second))
		if err != nil {
			fmt.Println(err)
			return
		}
		v, err := c.Check(ctx, client.Chat, client.Prompt, body)
		c.Close()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: unavailable=%v blocked=%v status=%d\n", mode, v.Unavailable, v.Blocked, v.HTTPStatus())
		if mode == client.FailOpen {
			printJSON(v.ContentFilterResults())
		}
	}
	// Output:
	// fail-closed: unavailable=true blocked=true status=500
	// fail-open: unavailable=true blocked=false status=200
	// {
	//   "error": {
	//     "code": "content_filter_error",
	//     "message": "The contents are not filtered"
	//   }
	// }
}

// Dial a scaled-out service by its DNS name: streams are spread over every
// address it resolves to (round_robin). Here a real server listens on a
// loopback port.
func ExampleDial() {
	a, err := defaultAnalyzer()
	if err != nil {
		fmt.Println(err)
		return
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := server.NewServer(a)
	go srv.Serve(lis)
	defer srv.Shutdown(time.Second)

	c, err := client.Dial("dns:///"+lis.Addr().String(), client.WithTimeout(5*time.Second))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := c.Check(ctx, client.Completions, client.Prompt, []byte(`{"prompt":"Say this is a test."}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("blocked:", v.Blocked, "unavailable:", v.Unavailable)
	// Output:
	// blocked: false unavailable: false
}
