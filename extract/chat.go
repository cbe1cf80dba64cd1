package extract

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
)

// loc is the JSON path of a chat message or choice, formatted only for errors.
type loc struct {
	base string // "messages" or "choices"
	i    int
	sub  string // "", ".message" or ".delta"
}

func (l loc) String() string { return fmt.Sprintf("%s[%d]%s", l.base, l.i, l.sub) }

func rootPath() string { return "payload" }

// textKeys are the top-level keys that hold text in some API: the four
// this package reads, and the Responses API's input, instructions and
// output. A payload that has none of its own API's text containers carries
// no text (a usage-only or obfuscation-only chunk, an error body, an
// annotation chunk) unless it has one of these: then it was most likely
// sent under the wrong apiName, and its text would escape analysis.
var textKeys = []string{
	"messages", "choices", "prompt", "suffix", "data", "image", "images",
	"item", "delta", "text", "transcript", "arguments", "part", "response", "session",
	"input", "instructions", "output", "content",
}

// foreign fails when root, a payload with none of own (its API's text
// containers), has a text key of another API. The message names the key
// (one of textKeys, never payload text).
func foreign(root gjson.Result, own []string) error {
	var err error
	root.ForEach(func(k, _ gjson.Result) bool {
		if slices.Contains(textKeys, k.Str) && !slices.Contains(own, k.Str) {
			last := len(own) - 1
			err = fmt.Errorf("%w: payload: no %s or %s, but %q, a text field of another API (wrong apiName?)",
				ErrShape, strings.Join(own[:last], ", "), own[last], k.Str)
		}
		return err == nil
	})
	return err
}

var chatRootNames = []string{"messages", "choices"}

// chat extracts a Chat Completions request (messages → PROMPT), response or
// stream chunk (choices → COMPLETION). A payload with neither carries no
// text: a usage-only or obfuscation-only chunk, an error body, an Azure
// annotation-only chunk (see foreign).
func (p *parser) chat(root gjson.Result) error {
	var v [2]gjson.Result
	if err := read(root, chatRootNames, v[:], rootPath); err != nil {
		return err
	}
	messages, choices := v[0], v[1]
	if !messages.Exists() && !choices.Exists() {
		return foreign(root, chatRootNames)
	}
	if err := p.chatMessages(messages); err != nil {
		return err
	}
	return p.chatChoices(choices)
}

func (p *parser) chatMessages(v gjson.Result) error {
	return items(v, func() string { return "messages" }, func(i int, m gjson.Result) error {
		return p.chatMessage(Prompt, itoa(i), loc{"messages", i, ""}, m, false)
	})
}

var choiceNames = []string{"index", "message", "delta"}

func (p *parser) chatChoices(v gjson.Result) error {
	return items(v, func() string { return "choices" }, p.chatChoice)
}

func (p *parser) chatChoice(k int, c gjson.Result) error {
	l := loc{"choices", k, ""}
	if absent(c) {
		return nil
	}
	if !c.IsObject() {
		return shapeErr(l.String(), "object", c)
	}
	var v [3]gjson.Result
	if err := read(c, choiceNames, v[:], l.String); err != nil {
		return err
	}
	idx, err := index(v[0], k, maxMessageIndex, func() string { return l.String() + ".index" })
	if err != nil {
		return err
	}
	id := itoa(idx)
	// An Azure annotation chunk has neither message nor delta: nothing.
	if err := p.chatMessage(Completion, id, loc{"choices", k, ".message"}, v[1], false); err != nil {
		return err
	}
	return p.chatMessage(Completion, id, loc{"choices", k, ".delta"}, v[2], true)
}

var messageNames = []string{"content", "refusal", "tool_calls", "function_call", "audio"}

// chatMessage extracts one message: a request's messages[i], a response's
// choices[k].message, or a chunk's choices[k].delta (delta set).
func (p *parser) chatMessage(src Source, id string, l loc, m gjson.Result, delta bool) error {
	if absent(m) {
		return nil
	}
	if !m.IsObject() {
		return shapeErr(l.String(), "object", m)
	}
	var v [5]gjson.Result
	if err := read(m, messageNames, v[:], l.String); err != nil {
		return err
	}
	switch c := v[0]; {
	case c.Type == gjson.String:
		p.text(src, id, 0, sval(c), false)
	case absent(c):
	case c.IsArray():
		if err := p.chatParts(src, id, l, c); err != nil {
			return err
		}
	default:
		return shapeErr(l.String()+".content", "string or array", c)
	}
	refusal, err := str(v[1], func() string { return l.String() + ".refusal" })
	if err != nil {
		return err
	}
	p.text(src, id, IndexRefusal, refusal, false)
	if err := p.toolCalls(src, id, l, v[2], delta); err != nil {
		return err
	}
	if err := p.functionCall(src, id, l, v[3]); err != nil {
		return err
	}
	return p.chatAudio(src, id, l, v[4], delta)
}

var partNames = []string{"type", "text", "refusal"}

// chatParts extracts content parts: text and refusal parts are text at their
// index, every other part (image_url, input_audio, file, ...) is NoModel at
// its index.
func (p *parser) chatParts(src Source, id string, l loc, c gjson.Result) error {
	var err error
	j := 0
	c.ForEach(func(_, part gjson.Result) bool {
		err = p.chatPart(src, id, l, j, part)
		j++
		return err == nil
	})
	return err
}

func (p *parser) chatPart(src Source, id string, l loc, j int, part gjson.Result) error {
	path := func() string { return fmt.Sprintf("%s.content[%d]", l, j) }
	if j >= IndexLimit {
		return fmt.Errorf("%w: %s.content: more than %d parts", ErrShape, l, IndexLimit)
	}
	switch {
	case part.Type == gjson.String: // not the API's form, but plainly text
		p.text(src, id, j, sval(part), false)
		return nil
	case absent(part):
		return nil
	case !part.IsObject():
		return shapeErr(path(), "object", part)
	}
	var v [3]gjson.Result
	if err := read(part, partNames, v[:], path); err != nil {
		return err
	}
	typ, err := str(v[0], func() string { return path() + ".type" })
	if err != nil {
		return err
	}
	text := func() error {
		t, err := str(v[1], func() string { return path() + ".text" })
		p.text(src, id, j, t, false)
		return err
	}
	refusal := func() error {
		t, err := str(v[2], func() string { return path() + ".refusal" })
		p.text(src, id, j, t, false)
		return err
	}
	switch typ {
	case "text", "input_text", "output_text":
		return text()
	case "refusal":
		return refusal()
	case "image_url", "input_image", "image", "input_audio", "audio", "file", "input_file":
		p.noModel(src, id, j)
		return nil
	}
	// An unknown part: analyze whatever text it has, else report it.
	if v[1].Type == gjson.String || v[2].Type == gjson.String {
		if err := text(); err != nil {
			return err
		}
		return refusal()
	}
	p.noModel(src, id, j)
	return nil
}

var toolCallNames = []string{"index", "function", "custom"}

// toolCalls extracts tool_calls[t].function.arguments (and custom tool
// input) at IndexToolCall+t; t is the position in a message, the call's index
// field in a stream delta.
func (p *parser) toolCalls(src Source, id string, l loc, v gjson.Result, delta bool) error {
	return items(v, func() string { return l.String() + ".tool_calls" }, func(n int, tc gjson.Result) error {
		return p.toolCall(src, id, l, n, tc, delta)
	})
}

func (p *parser) toolCall(src Source, id string, l loc, n int, tc gjson.Result, delta bool) error {
	path := func() string { return fmt.Sprintf("%s.tool_calls[%d]", l, n) }
	if absent(tc) {
		return nil
	}
	if !tc.IsObject() {
		return shapeErr(path(), "object", tc)
	}
	var v [3]gjson.Result
	if err := read(tc, toolCallNames, v[:], path); err != nil {
		return err
	}
	t := n
	if delta {
		var err error
		if t, err = index(v[0], n, IndexLimit, func() string { return path() + ".index" }); err != nil {
			return err
		}
	} else if n >= IndexLimit {
		return fmt.Errorf("%w: %s.tool_calls: more than %d calls", ErrShape, l, IndexLimit)
	}
	args, err := member(v[1], "arguments", func() string { return path() + ".function" })
	if err != nil {
		return err
	}
	p.text(src, id, IndexToolCall+t, args, false)
	input, err := member(v[2], "input", func() string { return path() + ".custom" })
	if err != nil {
		return err
	}
	p.text(src, id, IndexToolCall+t, input, false)
	return nil
}

// functionCall extracts a legacy function_call.arguments at IndexFunctionCall.
func (p *parser) functionCall(src Source, id string, l loc, v gjson.Result) error {
	args, err := member(v, "arguments", func() string { return l.String() + ".function_call" })
	if err != nil {
		return err
	}
	p.text(src, id, IndexFunctionCall, args, false)
	return nil
}

var audioNames = []string{"transcript"}

// chatAudio extracts a message's audio transcript at IndexAudio. Audio with
// no transcript (a request's reference {"id": ...} to earlier audio) is
// NoModel; a stream delta's audio chunks without transcript are skipped,
// because the transcript arrives in other chunks of the same choice.
func (p *parser) chatAudio(src Source, id string, l loc, v gjson.Result, delta bool) error {
	if absent(v) {
		return nil
	}
	if !v.IsObject() {
		return shapeErr(l.String()+".audio", "object", v)
	}
	var t [1]gjson.Result
	if err := read(v, audioNames, t[:], func() string { return l.String() + ".audio" }); err != nil {
		return err
	}
	transcript, err := str(t[0], func() string { return l.String() + ".audio.transcript" })
	if err != nil {
		return err
	}
	if absent(t[0]) && !delta {
		p.noModel(src, id, IndexAudio)
		return nil
	}
	p.text(src, id, IndexAudio, transcript, false)
	return nil
}

// member returns the string member name of object v ("" when v or the
// member is missing or null).
func member(v gjson.Result, name string, path func() string) (string, error) {
	if absent(v) {
		return "", nil
	}
	if !v.IsObject() {
		return "", shapeErr(path(), "object", v)
	}
	var m [1]gjson.Result
	if err := read(v, []string{name}, m[:], path); err != nil {
		return "", err
	}
	return str(m[0], func() string { return path() + "." + name })
}
