package extract_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/openrai/raiserver/extract"
)

// primer teaches a Stream one item→response mapping, so that fuzzed
// Realtime events also take the mapped paths.
const primer = `{"type":"response.output_item.added","response_id":"r","item":{"id":"i","role":"assistant"}}`

// FuzzExtract checks that Extract never panics, keeps its error contract and
// emits well-formed pieces, and that chat content text matches a slow
// reference decoder built on encoding/json. Seeds: testdata/fuzz/FuzzExtract.
func FuzzExtract(f *testing.F) {
	f.Add(uint8(extract.APIChat), uint8(extract.Prompt), []byte(`{"messages":[{"role":"user","content":"Hello!"}]}`))
	f.Add(uint8(extract.APIRealtime), uint8(extract.Completion), []byte(`{"type":"response.text.delta","item_id":"i","delta":"x"}`))
	f.Fuzz(func(t *testing.T, api, src uint8, payload []byte) {
		a, s := extract.API(api%6), extract.Source(src%4)
		st := extract.NewStream(extract.WithMaxDepth(64))
		if _, err := st.Extract(nil, extract.APIRealtime, extract.Completion, []byte(primer)); err != nil {
			t.Fatal(err)
		}
		prior := []extract.Piece{{Key: extract.Key{Source: extract.Prompt, MessageID: "prior"}, Text: "p"}}
		got, err := st.Extract(prior, a, s, payload)
		validArgs := a >= extract.APIChat && a <= extract.APIImage && (s == extract.Prompt || s == extract.Completion)
		if err != nil {
			if !errors.Is(err, extract.ErrInvalidJSON) && !errors.Is(err, extract.ErrShape) && !errors.Is(err, extract.ErrArgument) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			if !strings.HasPrefix(err.Error(), "extract: ") {
				t.Fatalf("error not package-prefixed: %v", err)
			}
			if len(got) != 1 || got[0].Text != "p" {
				t.Fatalf("dst changed on error")
			}
			if validArgs && !gjson.ValidBytes(payload) && !errors.Is(err, extract.ErrInvalidJSON) {
				t.Fatalf("invalid JSON reported as %v", err)
			}
			return
		}
		if !validArgs {
			t.Fatalf("accepted api %d source %d", a, s)
		}
		if !gjson.ValidBytes(payload) {
			t.Fatalf("accepted invalid JSON")
		}
		if len(got) < 1 || got[0].Text != "p" {
			t.Fatalf("prior pieces changed")
		}
		for i, p := range got[1:] {
			if p.Key.Source != extract.Prompt && p.Key.Source != extract.Completion {
				t.Fatalf("piece %d: source %d", i, p.Key.Source)
			}
			if p.Key.ContentIndex < 0 || p.Key.ContentIndex >= extract.IndexImage+extract.IndexLimit {
				t.Fatalf("piece %d: content index %d", i, p.Key.ContentIndex)
			}
			if p.NoModel && (p.Text != "" || p.Full) {
				t.Fatalf("piece %d: NoModel with text or Full", i)
			}
			if !p.NoModel && p.Text == "" {
				t.Fatalf("piece %d: empty text piece", i)
			}
		}
		if a == extract.APIChat {
			checkChatReference(t, payload, got[1:])
		}
		// The state after a payload must still serve another one.
		if _, err := st.Extract(nil, a, s, payload); err != nil {
			t.Fatalf("second run failed: %v", err)
		}
	})
}

// checkChatReference compares the content text (content indices below
// IndexLimit) of a chat payload with refChat.
func checkChatReference(t *testing.T, payload []byte, got []extract.Piece) {
	t.Helper()
	if !utf8.Valid(payload) {
		return // encoding/json replaces invalid UTF-8; extract passes it through
	}
	want, ok := refChat(payload)
	if !ok {
		return
	}
	have := map[extract.Key]string{}
	for _, p := range got {
		if !p.NoModel && p.Key.ContentIndex < extract.IndexLimit {
			have[p.Key] += p.Text
		}
	}
	if len(have) != len(want) {
		t.Fatalf("%d content items, reference has %d", len(have), len(want))
	}
	for k, w := range want {
		if have[k] != w {
			t.Fatalf("item %s: %d bytes, reference has %d (or the text differs)", keyString(k), len(have[k]), len(w))
		}
	}
}

// refChat is the obvious slow chat content extractor: encoding/json into
// generic values, then messages[i].content / choices[k].message|delta.content.
func refChat(payload []byte) (map[extract.Key]string, bool) {
	var root map[string]any
	if err := json.Unmarshal(payload, &root); err != nil {
		return nil, false
	}
	out := map[extract.Key]string{}
	add := func(src extract.Source, id string, content any) {
		switch c := content.(type) {
		case string:
			if c != "" {
				out[extract.Key{Source: src, MessageID: id}] += c
			}
		case []any:
			for j, part := range c {
				k := extract.Key{Source: src, MessageID: id, ContentIndex: j}
				switch pt := part.(type) {
				case string:
					if pt != "" {
						out[k] += pt
					}
				case map[string]any:
					typ, _ := pt["type"].(string)
					text, _ := pt["text"].(string)
					refusal, _ := pt["refusal"].(string)
					switch typ {
					case "text", "input_text", "output_text":
						refusal = ""
					case "refusal":
						text = ""
					case "image_url", "input_image", "image", "input_audio", "audio", "file", "input_file":
						text, refusal = "", ""
					}
					if text+refusal != "" {
						out[k] += text + refusal
					}
				}
			}
		}
	}
	if msgs, ok := root["messages"].([]any); ok {
		for i, m := range msgs {
			if mm, ok := m.(map[string]any); ok {
				add(extract.Prompt, strconv.Itoa(i), mm["content"])
			}
		}
	}
	if choices, ok := root["choices"].([]any); ok {
		for k, c := range choices {
			cm, ok := c.(map[string]any)
			if !ok {
				continue
			}
			id := strconv.Itoa(k)
			if n, ok := cm["index"].(float64); ok {
				id = strconv.Itoa(int(n))
			}
			for _, f := range []string{"message", "delta"} {
				if m, ok := cm[f].(map[string]any); ok {
					add(extract.Completion, id, m["content"])
				}
			}
		}
	}
	return out, true
}

// TestUnescapeMatchesEncodingJSON checks the decoding of escaped strings
// against encoding/json, lone surrogates included.
func TestUnescapeMatchesEncodingJSON(t *testing.T) {
	lits := []string{
		`"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\u4e2d\ud83d\ude00"`,
		`"\ud800\u0041"`, `"\ud800A"`, `"\udc00\u0041"`, `"\ud800\ud800\udc00"`, `"\ud83d"`, `"x\ud83d\\"`,
		`"\uD83D\uDE00"`, `"\u0000"`, `"é\n😀"`,
	}
	for i, lit := range lits {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatalf("literal %d: %v", i, err)
		}
		payload := `{"messages":[{"content":` + lit + `}]}`
		got, err := extract.NewStream().Extract(nil, extract.APIChat, extract.Prompt, []byte(payload))
		if err != nil {
			t.Fatalf("literal %d: %v", i, err)
		}
		text := ""
		if len(got) == 1 {
			text = got[0].Text
		}
		if text != want {
			t.Errorf("literal %d: %d bytes, encoding/json gives %d (or the bytes differ)", i, len(text), len(want))
		}
	}
}
