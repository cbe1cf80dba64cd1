package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	raiv1 "github.com/openrai/raiserver/gen/rai/v1"
)

// sharedFixtures returns ../shared/fixtures/payloads from the repository
// root, or skips the test when it is absent (a fresh clone).
func sharedFixtures(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "shared", "fixtures", "payloads"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared fixtures not found at %s; skipping", dir)
	}
	return dir
}

// fixtureRequests turns a fixture file into the requests a backend would send:
// its API from the folder, PROMPT for requests and client events, COMPLETION
// for responses and server events, one request per element of a stream array.
func fixtureRequests(t *testing.T, root, path string) []*raiv1.AnalyzeRequest {
	t.Helper()
	rel, _ := filepath.Rel(root, path)
	dir, name := filepath.Dir(rel), filepath.Base(rel)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	api := map[string]string{
		"chat": "Chatcompletion", "chat_stream": "Chatcompletion", "azure_content_filter": "Chatcompletion",
		"completions": "Completion", "images": "Imagegeneration", "realtime/beta": "Realtime", "realtime/ga": "Realtime",
	}[dir]
	if api == "" {
		t.Skipf("no API known for folder %s", dir)
	}
	source := "COMPLETION"
	if strings.HasPrefix(name, "request") || strings.HasPrefix(name, "client_") || strings.Contains(name, "_request") ||
		strings.HasPrefix(name, "server_conversation_item") || strings.HasPrefix(name, "server_input_audio") {
		source = "PROMPT"
	}
	var payloads []string
	if strings.HasPrefix(strings.TrimSpace(string(b)), "[") {
		var arr []json.RawMessage
		if err := json.Unmarshal(b, &arr); err != nil {
			t.Fatal(err)
		}
		for _, e := range arr {
			payloads = append(payloads, string(e))
		}
	} else {
		payloads = []string{string(b)}
	}
	var reqs []*raiv1.AnalyzeRequest
	for _, p := range payloads {
		reqs = append(reqs, req(source, api, p))
	}
	return reqs
}

// TestSharedFixtures sends every shared payload fixture through the server and
// checks that each stream ends cleanly and obeys SPEC §3.
func TestSharedFixtures(t *testing.T) {
	root := sharedFixtures(t)
	ts := startServer(t)
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures found")
	}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		t.Run(rel, func(t *testing.T) {
			reqs := fixtureRequests(t, root, f)
			tr := ts.run(t, reqs...)
			c := tr.completion(t)
			if strings.HasPrefix(filepath.Base(f), "error_") {
				// Azure error bodies are not chat payloads: they may be
				// rejected, but the stream must still end with a Completion.
				return
			}
			if c.GetEndReason() != raiv1.EndReason_END_REASON_END_OF_STREAM || tr.err != nil {
				t.Fatalf("completion %v, status %v", c, tr.err)
			}
			tr.checkInvariants(t, nil)
		})
	}
}
