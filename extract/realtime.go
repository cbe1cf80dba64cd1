package extract

import (
	"fmt"

	"github.com/tidwall/gjson"
)

// Fields of a Realtime event read by realtime, in this order.
const (
	rtType = iota
	rtResponseID
	rtItemID
	rtContentIndex
	rtDelta
	rtText
	rtTranscript
	rtArguments
	rtItem
	rtPart
	rtResponse
	rtSession
	rtFields
)

var realtimeNames = [rtFields]string{
	rtType: "type", rtResponseID: "response_id", rtItemID: "item_id", rtContentIndex: "content_index",
	rtDelta: "delta", rtText: "text", rtTranscript: "transcript", rtArguments: "arguments",
	rtItem: "item", rtPart: "part", rtResponse: "response", rtSession: "session",
}

// realtime extracts one Realtime client or server event. The event type and
// the item's role decide whether text is user input (PROMPT, keyed by item
// id) or model output (COMPLETION, keyed by len(response_id)+response_id+
// len(item_id)+item_id); the request's sourceType does not. Events without
// text and unknown event types yield nothing.
func (p *parser) realtime(root gjson.Result) error {
	var v [rtFields]gjson.Result
	if err := read(root, realtimeNames[:], v[:], rootPath); err != nil {
		return err
	}
	if v[rtType].Type != gjson.String {
		return shapeErr("type", "string", v[rtType])
	}
	typ := sval(v[rtType])
	switch typ {
	// Model output, streamed: append.
	case "response.text.delta", "response.output_text.delta",
		"response.audio_transcript.delta", "response.output_audio_transcript.delta":
		return p.outputText(&v, rtDelta, 0, false)
	case "response.function_call_arguments.delta", "response.mcp_call_arguments.delta":
		return p.outputText(&v, rtDelta, IndexToolCall, false)

	// Model output, complete: Full.
	case "response.text.done", "response.output_text.done":
		return p.outputText(&v, rtText, 0, true)
	case "response.audio_transcript.done", "response.output_audio_transcript.done":
		return p.outputText(&v, rtTranscript, 0, true)
	case "response.function_call_arguments.done", "response.mcp_call_arguments.done":
		return p.outputText(&v, rtArguments, IndexToolCall, true)
	case "response.content_part.added", "response.content_part.done":
		id, err := p.outputKey(&v)
		if err != nil {
			return err
		}
		ci, err := index(v[rtContentIndex], 0, IndexLimit, func() string { return "content_index" })
		if err != nil {
			return err
		}
		return p.part(Completion, id, ci, v[rtPart], true, func() string { return "part" })
	case "response.output_item.added", "response.output_item.done":
		resp, err := str(v[rtResponseID], func() string { return "response_id" })
		if err != nil {
			return err
		}
		return p.outputItem(resp, v[rtItem], func() string { return "item" })
	case "response.created", "response.done":
		return p.response(v[rtResponse])

	// Conversation items: user input, or model output the client replays.
	case "conversation.item.create", "conversation.item.created", "conversation.item.added",
		"conversation.item.done", "conversation.item.retrieved":
		return p.conversationItem(v[rtItem], func() string { return "item" })

	// Transcription of user audio.
	case "conversation.item.input_audio_transcription.delta":
		return p.transcription(&v, rtDelta, false)
	case "conversation.item.input_audio_transcription.completed":
		return p.transcription(&v, rtTranscript, true)

	// Instructions.
	case "session.update", "session.created", "session.updated":
		return p.instructions(v[rtSession], "session")
	case "response.create":
		return p.responseCreate(v[rtResponse])
	}
	return nil
}

// outputKey returns the messageId of the model output item an event names
// by response_id and item_id. Without a response_id the item→response map
// decides; if it does not know the item, the response id is taken as empty
// ("0" + len(item_id) + item_id), so the text is still analyzed.
func (p *parser) outputKey(v *[rtFields]gjson.Result) (string, error) {
	resp, err := str(v[rtResponseID], func() string { return "response_id" })
	if err != nil {
		return "", err
	}
	item, err := str(v[rtItemID], func() string { return "item_id" })
	if err != nil {
		return "", err
	}
	return p.outputID(resp, item), nil
}

// outputID returns the messageId of item of response resp, looking resp up
// when empty and learning the pair when both are known.
func (p *parser) outputID(resp, item string) string {
	if resp == "" {
		resp = p.s.resp[item]
		return p.s.outputID(resp, item)
	}
	id := p.s.outputID(resp, item)
	if item != "" {
		if known, ok := p.s.resp[item]; !ok || known != resp {
			p.s.pending = append(p.s.pending, mapping{item: p.s.lastItem, resp: p.s.lastResp})
		}
	}
	return id
}

// outputText extracts the string field f of a response text, transcript or
// arguments event at content_index + base (base is 0 or IndexToolCall, whose
// events carry no content_index).
func (p *parser) outputText(v *[rtFields]gjson.Result, f, base int, full bool) error {
	id, err := p.outputKey(v)
	if err != nil {
		return err
	}
	ci := base
	if base == 0 {
		if ci, err = index(v[rtContentIndex], 0, IndexLimit, func() string { return "content_index" }); err != nil {
			return err
		}
	}
	text, err := str(v[f], func() string { return realtimeNames[f] })
	if err != nil {
		return err
	}
	p.text(Completion, id, ci, text, full)
	return nil
}

var responseNames = []string{"id", "output", "instructions", "input"}

// responseFields reads the fields responseNames of the response object r;
// ok is false when r is absent.
func responseFields(r gjson.Result) (v [4]gjson.Result, ok bool, err error) {
	if absent(r) {
		return v, false, nil
	}
	if !r.IsObject() {
		return v, false, shapeErr("response", "object", r)
	}
	err = read(r, responseNames, v[:], func() string { return "response" })
	return v, true, err
}

// response extracts response.created / response.done: every output item,
// as complete model output of response.id.
func (p *parser) response(r gjson.Result) error {
	v, ok, err := responseFields(r)
	if !ok || err != nil {
		return err
	}
	resp, err := str(v[0], func() string { return "response.id" })
	if err != nil {
		return err
	}
	return items(v[1], func() string { return "response.output" }, func(i int, it gjson.Result) error {
		return p.outputItem(resp, it, elemPath("response.output", i))
	})
}

// responseCreate extracts a client response.create: its instructions and
// its out-of-band input items.
func (p *parser) responseCreate(r gjson.Result) error {
	v, ok, err := responseFields(r)
	if !ok || err != nil {
		return err
	}
	if err := p.instructionsText(v[2], "response.instructions"); err != nil {
		return err
	}
	return items(v[3], func() string { return "response.input" }, func(i int, it gjson.Result) error {
		return p.conversationItem(it, elemPath("response.input", i))
	})
}

// elemPath names element i of the array at JSON path name, for errors.
func elemPath(name string, i int) func() string {
	return func() string { return fmt.Sprintf("%s[%d]", name, i) }
}

var itemNames = []string{"id", "type", "role", "content", "arguments", "output"}

// readItem reads an item's fields: its id, type and role as strings.
func readItem(it gjson.Result, path func() string) (v [6]gjson.Result, id, typ, role string, err error) {
	if !it.IsObject() {
		return v, "", "", "", shapeErr(path(), "object", it)
	}
	if err = read(it, itemNames, v[:], path); err != nil {
		return
	}
	if id, err = str(v[0], func() string { return path() + ".id" }); err != nil {
		return
	}
	if typ, err = str(v[1], func() string { return path() + ".type" }); err != nil {
		return
	}
	role, err = str(v[2], func() string { return path() + ".role" })
	return
}

// outputItem extracts an item of response resp's output (resp may be empty:
// then the map decides) as complete model output.
func (p *parser) outputItem(resp string, it gjson.Result, path func() string) error {
	if absent(it) {
		return nil
	}
	v, id, _, _, err := readItem(it, path)
	if err != nil {
		return err
	}
	return p.itemBody(Completion, p.outputID(resp, id), true, &v, path)
}

// conversationItem extracts an item of a conversation.item.* event or a
// response.create input. User, system and tool-output items are PROMPT,
// keyed by the item id. Assistant messages and function / MCP calls are
// model output the client replays: COMPLETION under the response that
// produced the item when the map knows it (so the echo of streamed text is
// not analyzed twice), else PROMPT like chat history. An item without id is
// PROMPT under messageId "" and appended, not Full, since several may share it.
func (p *parser) conversationItem(it gjson.Result, path func() string) error {
	if absent(it) {
		return nil
	}
	v, id, typ, role, err := readItem(it, path)
	if err != nil {
		return err
	}
	if id != "" && (role == "assistant" || typ == "function_call" || typ == "mcp_call" ||
		typ == "mcp_approval_request" || typ == "mcp_list_tools") {
		if resp, ok := p.s.resp[id]; ok {
			return p.itemBody(Completion, p.s.outputID(resp, id), true, &v, path)
		}
	}
	if id == "" {
		return p.itemBody(Prompt, "", false, &v, path)
	}
	return p.itemBody(Prompt, p.s.promptID(id), true, &v, path)
}

// itemBody extracts an item's content parts (at their index), its arguments
// (function_call, MCP calls: IndexToolCall) and its output
// (function_call_output, MCP calls: IndexToolOutput).
func (p *parser) itemBody(src Source, id string, full bool, v *[6]gjson.Result, path func() string) error {
	if c := v[3]; !absent(c) {
		if !c.IsArray() {
			return shapeErr(path()+".content", "array", c)
		}
		var err error
		j := 0
		c.ForEach(func(_, part gjson.Result) bool {
			k := j
			if k >= IndexLimit {
				err = fmt.Errorf("%w: %s.content: more than %d parts", ErrShape, path(), IndexLimit)
				return false
			}
			err = p.part(src, id, k, part, full, func() string { return fmt.Sprintf("%s.content[%d]", path(), k) })
			j++
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	args, err := str(v[4], func() string { return path() + ".arguments" })
	if err != nil {
		return err
	}
	p.text(src, id, IndexToolCall, args, full)
	out, err := str(v[5], func() string { return path() + ".output" })
	if err != nil {
		return err
	}
	p.text(src, id, IndexToolOutput, out, full)
	return nil
}

var rtPartNames = []string{"type", "text", "transcript"}

// part extracts one content part at content index ci: text of text parts,
// the transcript of audio parts (NoModel if it has none), NoModel for images;
// item references carry nothing; an unknown part gives its text or transcript,
// or NoModel.
func (p *parser) part(src Source, id string, ci int, part gjson.Result, full bool, path func() string) error {
	switch {
	case absent(part):
		return nil
	case part.Type == gjson.String: // not the API's form, but plainly text
		p.text(src, id, ci, sval(part), full)
		return nil
	case !part.IsObject():
		return shapeErr(path(), "object", part)
	}
	var v [3]gjson.Result
	if err := read(part, rtPartNames, v[:], path); err != nil {
		return err
	}
	typ, err := str(v[0], func() string { return path() + ".type" })
	if err != nil {
		return err
	}
	field := func(f int) error {
		t, err := str(v[f], func() string { return path() + "." + rtPartNames[f] })
		p.text(src, id, ci, t, full)
		return err
	}
	switch typ {
	case "input_text", "text", "output_text":
		return field(1)
	case "input_audio", "audio", "output_audio":
		if absent(v[2]) {
			p.noModel(src, id, ci)
			return nil
		}
		return field(2)
	case "input_image", "image", "output_image":
		p.noModel(src, id, ci)
		return nil
	case "item_reference":
		return nil
	}
	if v[1].Type != gjson.String && v[2].Type != gjson.String {
		p.noModel(src, id, ci)
		return nil
	}
	if err := field(1); err != nil {
		return err
	}
	return field(2)
}

// transcription extracts input audio transcription deltas (append) and
// .completed (Full) as PROMPT text of the user item.
func (p *parser) transcription(v *[rtFields]gjson.Result, f int, full bool) error {
	item, err := str(v[rtItemID], func() string { return "item_id" })
	if err != nil {
		return err
	}
	ci, err := index(v[rtContentIndex], 0, IndexLimit, func() string { return "content_index" })
	if err != nil {
		return err
	}
	text, err := str(v[f], func() string { return realtimeNames[f] })
	if err != nil {
		return err
	}
	if item == "" {
		p.text(Prompt, "", ci, text, false)
		return nil
	}
	p.text(Prompt, p.s.promptID(item), ci, text, full)
	return nil
}

var sessionNames = []string{"instructions"}

// instructions extracts session.instructions of session.update / .created / .updated.
func (p *parser) instructions(s gjson.Result, name string) error {
	if absent(s) {
		return nil
	}
	if !s.IsObject() {
		return shapeErr(name, "object", s)
	}
	var v [1]gjson.Result
	if err := read(s, sessionNames, v[:], func() string { return name }); err != nil {
		return err
	}
	return p.instructionsText(v[0], name+".instructions")
}

func (p *parser) instructionsText(v gjson.Result, path string) error {
	text, err := str(v, func() string { return path })
	if err != nil {
		return err
	}
	p.text(Prompt, InstructionsID, IndexInstructions, text, true)
	return nil
}
