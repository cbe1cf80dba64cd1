package extract_test

import (
	"fmt"

	"github.com/openrai/raiserver/extract"
)

func ExampleStream_Extract() {
	s := extract.NewStream()
	var pieces []extract.Piece
	for _, p := range []string{
		`{"messages":[{"role":"user","content":[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{"url":"https://example.com/a.png"}}]}]}`,
		`{"choices":[{"index":0,"delta":{"content":"A lighthouse"}}]}`,
	} {
		var err error
		if pieces, err = s.Extract(pieces, extract.APIChat, extract.Prompt, []byte(p)); err != nil {
			fmt.Println(err)
			return
		}
	}
	for _, p := range pieces {
		fmt.Printf("%s %s/%d nomodel=%t %q\n", p.Key.Source, p.Key.MessageID, p.Key.ContentIndex, p.NoModel, p.Text)
	}
	// Output:
	// PROMPT 0/0 nomodel=false "What is this?"
	// PROMPT 0/1 nomodel=true ""
	// COMPLETION 0/0 nomodel=false "A lighthouse"
}

func ExampleStream_Extract_realtime() {
	s := extract.NewStream()
	var pieces []extract.Piece
	for _, e := range []string{
		`{"type":"response.output_item.added","response_id":"res_01","item":{"id":"item_02","type":"message","role":"assistant"}}`,
		`{"type":"response.output_audio_transcript.delta","response_id":"res_01","item_id":"item_02","content_index":0,"delta":"Hi"}`,
		`{"type":"conversation.item.done","item":{"id":"item_02","role":"assistant","content":[{"type":"output_audio","transcript":"Hi there."}]}}`,
	} {
		var err error
		if pieces, err = s.Extract(pieces, extract.APIRealtime, extract.Completion, []byte(e)); err != nil {
			fmt.Println(err)
			return
		}
	}
	for _, p := range pieces {
		fmt.Printf("%s %s/%d full=%t %q\n", p.Key.Source, p.Key.MessageID, p.Key.ContentIndex, p.Full, p.Text)
	}
	// Output:
	// COMPLETION 6res_017item_02/0 full=false "Hi"
	// COMPLETION 6res_017item_02/0 full=true "Hi there."
}
