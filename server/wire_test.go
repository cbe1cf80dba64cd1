package server

import (
	"encoding/json"
	"reflect"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/openrai/raiserver/analyzer"
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/extract"
	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// The JSON examples of SPEC §1, verbatim.
const (
	specRequest = `{"sourceType": "PROMPT", "apiName": "Chatcompletion",
 "payload": "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello!\"}]}"}`
	specResult = `{"analysisResult": {"offset": {"sourceType": "PROMPT", "messageId": "0", "contentIndex": 0,
                                "startOffset": 0, "endOffset": 50},
                     "harmCategoryTaskResults": [{"result": "OK", "isBlocking": true, "kind": "HARM_CATEGORY",
                       "harmCategoryTaskResult": {"harmCategory": "HATE", "isDetected": true,
                                                  "severity": 3, "riskLevel": "HIGH"}}]}}`
	specWatermark  = `{"watermark": {"sourceType": "PROMPT", "messageId": "0", "contentIndex": 0, "offset": 50}}`
	specCompletion = `{"completion": {"end_reason": "END_REASON_END_OF_STREAM", "error_description": ""}}`
)

// jsonEqual compares two JSON documents by value, not by layout.
func jsonEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got invalid JSON: %v", err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want invalid JSON: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("JSON mismatch\n got: %s\nwant: %s", got, want)
	}
}

func TestSpecRequestDecodes(t *testing.T) {
	var req raiv1.AnalyzeRequest
	if err := protojson.Unmarshal([]byte(specRequest), &req); err != nil {
		t.Fatal(err)
	}
	if req.GetSourceType() != "PROMPT" || req.GetApiName() != "Chatcompletion" {
		t.Errorf("decoded %v", &req)
	}
	want := `{"model":"gpt-4o","messages":[{"role":"user","content":"Hello!"}]}`
	if req.GetPayload() != want {
		t.Errorf("payload = %q", req.GetPayload())
	}
	out, err := protojson.Marshal(&req)
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, out, specRequest)
}

func TestSpecEventsEncode(t *testing.T) {
	onlyHate := []classifiers.Category{classifiers.Hate}
	key := extract.Key{Source: extract.Prompt, MessageID: "0", ContentIndex: 0}
	result := &analyzer.Event{Kind: analyzer.KindResult, Key: key, Start: 0, End: 50, Blocking: true}
	result.Categories[classifiers.Hate] = analyzer.CategoryResult{Severity: 3, Risk: analyzer.RiskHigh, Blocking: true}
	watermark := &analyzer.Event{Kind: analyzer.KindWatermark, Key: key, End: 50}
	empty := ""
	completion := &raiv1.AnalyzeResponse{Event: &raiv1.AnalyzeResponse_Completion{Completion: &raiv1.Completion{
		EndReason: raiv1.EndReason_END_REASON_END_OF_STREAM, ErrorDescription: &empty}}}

	tests := []struct {
		name string
		msg  proto.Message
		want string
	}{
		{"analysis result", eventToProto(onlyHate, result), specResult},
		{"watermark", eventToProto(onlyHate, watermark), specWatermark},
		{"completion", completion, specCompletion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := protojson.Marshal(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			jsonEqual(t, out, tt.want)
			// And the SPEC JSON decodes into the same message.
			back := tt.msg.ProtoReflect().New().Interface()
			if err := protojson.Unmarshal([]byte(tt.want), back); err != nil {
				t.Fatal(err)
			}
			if !proto.Equal(back, tt.msg) {
				t.Errorf("round trip differs: %v", back)
			}
		})
	}
}

func TestNoModelAndSafeCategoriesEncode(t *testing.T) {
	all := []classifiers.Category{classifiers.Hate, classifiers.Sexual, classifiers.Violence, classifiers.SelfHarm}
	key := extract.Key{Source: extract.Completion, MessageID: "6res_017item_02", ContentIndex: 1}
	nm := &analyzer.Event{Kind: analyzer.KindResult, Key: key, NoModel: true}
	out, err := protojson.Marshal(eventToProto(all[:1], nm))
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, out, `{"analysisResult":{"offset":{"sourceType":"COMPLETION","messageId":"6res_017item_02","contentIndex":1,"startOffset":0,"endOffset":0},
		"harmCategoryTaskResults":[{"result":"NoModel","isBlocking":false,"kind":"HARM_CATEGORY","harmCategoryTaskResult":{"harmCategory":"HATE"}}]}}`)

	ev := &analyzer.Event{Kind: analyzer.KindResult, Key: key, Start: 3, End: 9}
	ev.Categories[classifiers.Violence] = analyzer.CategoryResult{Severity: 1, Risk: analyzer.RiskLow}
	out, err = protojson.Marshal(eventToProto(all, ev))
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, out, `{"analysisResult":{"offset":{"sourceType":"COMPLETION","messageId":"6res_017item_02","contentIndex":1,"startOffset":3,"endOffset":9},
		"harmCategoryTaskResults":[
		{"result":"OK","isBlocking":false,"kind":"HARM_CATEGORY","harmCategoryTaskResult":{"harmCategory":"HATE","isDetected":false,"severity":0}},
		{"result":"OK","isBlocking":false,"kind":"HARM_CATEGORY","harmCategoryTaskResult":{"harmCategory":"SEXUAL","isDetected":false,"severity":0}},
		{"result":"OK","isBlocking":false,"kind":"HARM_CATEGORY","harmCategoryTaskResult":{"harmCategory":"VIOLENCE","isDetected":true,"severity":1,"riskLevel":"LOW"}},
		{"result":"OK","isBlocking":false,"kind":"HARM_CATEGORY","harmCategoryTaskResult":{"harmCategory":"SELF_HARM","isDetected":false,"severity":0}}]}}`)
}

type panicClassifier struct{}

func (panicClassifier) Classify([]classifiers.Finding, []byte) []classifiers.Finding {
	panic("classifier bug")
}

// TestPanicEndsOneStream checks that a panicking classifier ends its stream
// with an INTERNAL_ERROR Completion and leaves the server serving.
func TestPanicEndsOneStream(t *testing.T) {
	a, err := analyzer.New(panicClassifier{})
	if err != nil {
		t.Fatal(err)
	}
	ts := startBufconn(t, a)
	for range 2 {
		events, err := ts.roundTrip(&raiv1.AnalyzeRequest{SourceType: "PROMPT", ApiName: "Completion", Payload: `{"prompt":"Some text. More"}`})
		if status.Code(err) != codes.Internal {
			t.Errorf("status %v, want Internal", err)
		}
		if n := len(events); n == 0 || events[n-1].GetCompletion().GetEndReason() != raiv1.EndReason_END_REASON_INTERNAL_ERROR {
			t.Errorf("events %v", events)
		}
	}
}
