package client_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/openrai/raiserver/client"
)

// fixture reads ../shared/fixtures/payloads/<name> next to the repository
// as generic JSON, skipping the test when the shared directory is absent.
func fixture(t *testing.T, name string) map[string]any {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "fixtures", "payloads", name)
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Skipf("shared fixture %s not found; skipping", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// generic marshals v and reads it back as generic JSON.
func generic(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var g any
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// at walks a path of object keys and array indices.
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q", path, k)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("%v: no element %d", path, k)
			}
			v = a[k]
		}
	}
	return v
}

// without returns a shallow copy of object v without keys.
func without(v any, keys ...string) map[string]any {
	out := map[string]any{}
	for k, x := range v.(map[string]any) {
		out[k] = x
	}
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

func jsonEqual(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s:\n got %s\nwant %s", what, g, w)
	}
}

// blockedVerdict is the verdict of error_400_innererror_doc2023.json: hate
// and self-harm high, violence medium, all three over the threshold.
func blockedVerdict() *client.Verdict {
	v := &client.Verdict{Blocked: true, Categories: client.Categories{
		Hate:     client.CategoryResult{Severity: 4, Blocking: true},
		SelfHarm: client.CategoryResult{Severity: 3, Blocking: true},
		Violence: client.CategoryResult{Severity: 2, Blocking: true},
	}}
	v.Block = &client.Block{Item: client.Item{Source: client.Prompt, MessageID: "0"}, End: 10, Category: client.Hate, Severity: 4}
	return v
}

func TestAzureErrorMatchesFixtures(t *testing.T) {
	got := generic(t, blockedVerdict().AzureError())

	// Today's wire form: everything but the blocklist-specific result.
	cur := fixture(t, "azure_content_filter/error_400_custom_blocklist.json")
	jsonEqual(t, "error without innererror", without(at(t, got, "error"), "innererror"), without(at(t, cur, "error"), "innererror"))
	jsonEqual(t, "innererror.code", at(t, got, "error", "innererror", "code"), at(t, cur, "error", "innererror", "code"))

	// The per-category result; the 2023 doc spells self-harm with a hyphen,
	// the live service (and every other fixture) self_harm.
	doc := fixture(t, "azure_content_filter/error_400_innererror_doc2023.json")
	want := without(at(t, doc, "error", "innererror", "content_filter_result"), "self-harm")
	want["self_harm"] = at(t, doc, "error", "innererror", "content_filter_result", "self-harm")
	jsonEqual(t, "content_filter_result", at(t, got, "error", "innererror", "content_filter_result"), want)

	// The minimal documented form: same keys and values but the message.
	minimal := fixture(t, "azure_content_filter/error_400_minimal_doc.json")
	jsonEqual(t, "minimal", without(at(t, got, "error"), "innererror", "message"), without(at(t, minimal, "error"), "message"))
}

func TestAzureResultsMatchFixtures(t *testing.T) {
	safe := &client.Verdict{}
	resp := fixture(t, "azure_content_filter/response_chat_blocklist_finish_content_filter.json")
	jsonEqual(t, "prompt_filter_results", generic(t, safe.PromptFilterResults()), at(t, resp, "prompt_filter_results"))
	cfr := at(t, resp, "choices", 0, "content_filter_results")
	jsonEqual(t, "content_filter_results", generic(t, safe.ContentFilterResults()), without(cfr, "custom_blocklists"))

	blocked := blockedVerdict()
	if got, want := blocked.FinishReason("stop"), at(t, resp, "choices", 0, "finish_reason"); got != want {
		t.Errorf("finish_reason %q, want %q", got, want)
	}
	if got := safe.FinishReason("stop"); got != "stop" {
		t.Errorf("finish_reason of a safe verdict: %q", got)
	}

	o1 := fixture(t, "azure_content_filter/response_chat_o1_with_filters.json")
	jsonEqual(t, "o1 choice", generic(t, safe.ContentFilterResults()),
		without(at(t, o1, "choices", 0, "content_filter_results"), "protected_material_code", "protected_material_text"))

	// The service did not answer: Azure's "the filter did not run" form.
	down := &client.Verdict{Unavailable: true}
	errResp := fixture(t, "completions/response_azure_doc_filter_error.json")
	jsonEqual(t, "filter error", generic(t, down.ContentFilterResults()), at(t, errResp, "choices", 0, "content_filter_results"))
}

func TestSeverityLabels(t *testing.T) {
	for sev, want := range []string{"safe", "low", "medium", "high", "high", "high"} {
		if got := client.SeverityLabel(sev); got != want {
			t.Errorf("SeverityLabel(%d) = %q, want %q", sev, got, want)
		}
	}
}

func TestChatErrorBodies(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    *client.Verdict
		want string
	}{
		{"prompt", blockedVerdict(), `{"error":"Your message contains content that was flagged by the content filter."}`},
		{"completion", &client.Verdict{Blocked: true, Block: &client.Block{Item: client.Item{Source: client.Completion}}},
			`{"error":"The response was stopped because it contains content that was flagged by the content filter."}`},
		{"unavailable", &client.Verdict{Blocked: true, Unavailable: true}, `{"error":"The content filter is unavailable. Please try again later."}`},
	} {
		b, err := json.Marshal(tc.v.ChatError())
		if err != nil || string(b) != tc.want {
			t.Errorf("%s: %s, %v", tc.name, b, err)
		}
	}
}
