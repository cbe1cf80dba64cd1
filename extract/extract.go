package extract

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// Source says whether text is user input or model output.
type Source uint8

// Sources, numbered as the wire's SourceType enum.
const (
	Prompt     Source = 1
	Completion Source = 2
)

// String returns the wire name, "PROMPT" or "COMPLETION".
func (s Source) String() string {
	switch s {
	case Prompt:
		return "PROMPT"
	case Completion:
		return "COMPLETION"
	}
	return "Source(" + strconv.Itoa(int(s)) + ")"
}

// ParseSource parses a request's sourceType, "PROMPT" or "COMPLETION" in any letter case.
func ParseSource(name string) (Source, bool) {
	switch {
	case strings.EqualFold(name, "PROMPT"):
		return Prompt, true
	case strings.EqualFold(name, "COMPLETION"):
		return Completion, true
	}
	return 0, false
}

// API names the API a payload belongs to.
type API uint8

// APIs, in the order of SPEC §1.
const (
	APIChat       API = iota + 1 // "Chatcompletion": Chat Completions
	APICompletion                // "Completion": legacy Completions
	APIRealtime                  // "Realtime": Realtime client and server events
	APIImage                     // "Imagegeneration": Image generation and edits
)

var apiNames = [...]string{APIChat: "Chatcompletion", APICompletion: "Completion", APIRealtime: "Realtime", APIImage: "Imagegeneration"}

// String returns the wire name, e.g. "Chatcompletion".
func (a API) String() string {
	if a >= APIChat && int(a) < len(apiNames) {
		return apiNames[a]
	}
	return "API(" + strconv.Itoa(int(a)) + ")"
}

// ParseAPI parses a request's apiName: "Chatcompletion", "Completion",
// "Realtime" or "Imagegeneration", in any letter case.
func ParseAPI(name string) (API, bool) {
	for a := APIChat; int(a) < len(apiNames); a++ {
		if strings.EqualFold(name, apiNames[a]) {
			return a, true
		}
	}
	return 0, false
}

// Reserved content indices. Text that is not a content part (a refusal, tool
// call arguments, an audio transcript, ...) gets an index far above any
// content part, so that no two texts of one message share a key. Content part
// indices, Realtime content_index values, tool call indices and image indices
// must be below IndexLimit; a payload with a larger one fails with ErrShape.
const (
	// IndexLimit bounds content part, tool call and image indices.
	IndexLimit = 1_000_000
	// IndexRefusal: a chat message's refusal string (message.refusal, delta.refusal).
	IndexRefusal = 1_000_000
	// IndexToolCall + t: the arguments of tool call t (chat tool_calls[t]
	// function.arguments or custom.input; t is a streamed call's index field),
	// and the arguments of a Realtime function_call / MCP item.
	IndexToolCall = 2_000_000
	// IndexFunctionCall: a chat message's legacy function_call.arguments.
	IndexFunctionCall = 3_000_000
	// IndexAudio: a chat message's audio: its transcript, or NoModel.
	IndexAudio = 4_000_000
	// IndexToolOutput: the output of a Realtime function_call_output / MCP item.
	IndexToolOutput = 5_000_000
	// IndexInstructions: Realtime session and response instructions, under
	// messageId InstructionsID.
	IndexInstructions = 6_000_000
	// IndexSuffix: a legacy Completions request's suffix, under messageId "0".
	IndexSuffix = 7_000_000
	// IndexImage + n: image n of an Imagegeneration payload (NoModel): input
	// images of an edit request (PROMPT) and generated images (COMPLETION).
	IndexImage = 8_000_000
)

// InstructionsID is the messageId of Realtime instructions (PROMPT, IndexInstructions).
const InstructionsID = "instructions"

// Key identifies a text item of a stream.
type Key struct {
	Source       Source
	MessageID    string
	ContentIndex int
}

// Piece is one piece of text (or a no-text marker) for an item.
type Piece struct {
	Key Key
	// Text is decoded text (JSON escapes decoded) to append to the item. It
	// may share memory with the payload passed to Extract, so it is valid
	// only while that payload is unmodified; Key.MessageID never does.
	Text string
	// Full says Text is the item's complete text so far (Realtime *.done
	// events, response.done, conversation.item.* echoes, transcription
	// .completed, instructions). The analyzer appends only what extends the
	// item's current version, and the whole Text if it does not start with
	// it (see Text).
	Full bool
	// NoModel says the content at Key has no analyzable text (an image, audio
	// without transcript, a file, a token array); Text is then empty.
	NoModel bool
}

// Extends returns the text p adds to an item whose current version (see
// Text) is have. That is Text, unless p is Full: then only what extends
// have (nothing when Text is a prefix of have), or the whole Text when it
// disagrees with have, so that none of it escapes analysis. Text.Add, which
// the analyzer and the client's watermark gate both use, calls it.
func (p *Piece) Extends(have []byte) string {
	text := p.Text
	if p.Full {
		switch {
		case len(text) >= len(have) && text[:len(have)] == string(have):
			text = text[len(have):]
		case len(text) < len(have) && string(have[:len(text)]) == text:
			text = ""
		}
	}
	return text
}

// Errors. Extract wraps one of them; the message adds the JSON path and what
// was wrong, never the payload's text.
var (
	// ErrInvalidJSON: the payload is not JSON (or nests deeper than the limit).
	ErrInvalidJSON = errors.New("extract: payload is not valid JSON")
	// ErrShape: the payload is JSON but not the API's shape.
	ErrShape = errors.New("extract: payload does not have the API's shape")
	// ErrArgument: Extract was called with an unknown API or Source value.
	ErrArgument = errors.New("extract: invalid argument")
)

// Defaults of the options.
const (
	DefaultMaxDepth         = 512
	DefaultMaxRealtimeItems = 4096
)

type config struct {
	maxDepth         int
	maxRealtimeItems int
}

// Option configures a Stream.
type Option func(*config)

// WithMaxDepth sets how deep a payload's objects and arrays may nest
// (default DefaultMaxDepth); deeper payloads fail with ErrInvalidJSON.
// Values below 1 keep the default.
func WithMaxDepth(n int) Option {
	return func(c *config) {
		if n >= 1 {
			c.maxDepth = n
		}
	}
}

// WithMaxRealtimeItems caps the Realtime item→response map (default
// DefaultMaxRealtimeItems); when full, the oldest entry is forgotten.
// Values below 1 keep the default.
func WithMaxRealtimeItems(n int) Option {
	return func(c *config) {
		if n >= 1 {
			c.maxRealtimeItems = n
		}
	}
}

// Stream holds the extraction state of one stream: the Realtime
// item→response map and small caches. It is not safe for concurrent use;
// use one per gRPC stream.
type Stream struct {
	cfg config
	// resp maps a Realtime item id to the id of the response that produced
	// it. Keys and values are substrings of owned message ids.
	resp map[string]string
	// order holds resp's keys in insertion order, a ring once full.
	order []string
	next  int
	// pending holds mappings learned from the current payload; they are
	// added to resp only when the payload is accepted.
	pending []mapping
	// Last derived model-output id and last prompt item id, so that a run of
	// deltas for one item allocates its id once.
	lastOut, lastResp, lastItem string
	lastPrompt                  string
}

type mapping struct{ item, resp string }

// NewStream returns the extraction state for a new stream.
func NewStream(opts ...Option) *Stream {
	cfg := config{maxDepth: DefaultMaxDepth, maxRealtimeItems: DefaultMaxRealtimeItems}
	for _, o := range opts {
		o(&cfg)
	}
	return &Stream{cfg: cfg}
}

// Extract parses one request payload and appends its pieces to dst in payload
// order. src is the request's sourceType, checked to be Prompt or
// Completion; the payload itself decides each piece's Source (see the
// package doc). A payload that is the API's shape but carries no text (a
// usage-only chunk, `choices: []`, an empty delta, an error body) yields no
// pieces and no error. On error it returns dst unchanged (its
// length; elements past it may have been written) plus an error wrapping
// ErrInvalidJSON, ErrShape or ErrArgument, and the Stream's state is as before.
func (s *Stream) Extract(dst []Piece, api API, src Source, payload []byte) ([]Piece, error) {
	if api < APIChat || api > APIImage {
		return dst, fmt.Errorf("%w: api %d", ErrArgument, api)
	}
	if src != Prompt && src != Completion {
		return dst, fmt.Errorf("%w: source %d", ErrArgument, src)
	}
	if err := s.validate(payload); err != nil {
		return dst, err
	}
	// gjson reads strings; view the payload as one without copying it. Text
	// pieces may point into it (see Piece.Text); ids are always copied.
	root := gjson.Parse(unsafe.String(unsafe.SliceData(payload), len(payload)))
	if !root.IsObject() {
		return dst, fmt.Errorf("%w: payload: want object, got %s", ErrShape, kind(root))
	}
	p := parser{s: s, dst: dst}
	s.pending = s.pending[:0]
	var err error
	switch api {
	case APIChat:
		err = p.chat(root)
	case APICompletion:
		err = p.completion(root)
	case APIRealtime:
		err = p.realtime(root)
	case APIImage:
		err = p.image(root)
	}
	if err != nil {
		clear(p.dst[len(dst):])
		return dst, err
	}
	for _, m := range s.pending {
		s.learn(m.item, m.resp)
	}
	clear(s.pending)
	return p.dst, nil
}

// validate checks that payload is JSON no deeper than the limit. The depth
// check runs first because gjson's validator recurses once per level.
func (s *Stream) validate(payload []byte) error {
	if d := depth(payload, s.cfg.maxDepth); d > s.cfg.maxDepth {
		return fmt.Errorf("%w: nested deeper than %d", ErrInvalidJSON, s.cfg.maxDepth)
	}
	if !gjson.ValidBytes(payload) {
		return fmt.Errorf("%w (%d bytes)", ErrInvalidJSON, len(payload))
	}
	return nil
}

// depth tells whether b nests objects and arrays deeper than max: the
// answer is above max exactly when it does. It is the bracket count when
// that is at most max (found fast), else the scanned depth, cut short once
// it passes max. Strings are skipped with IndexByte, so long texts cost
// little. On invalid JSON the answer is meaningless but bounded.
func depth(b []byte, max int) int {
	if n := bytes.Count(b, []byte{'{'}) + bytes.Count(b, []byte{'['}); n <= max {
		return n // an upper bound, found fast
	}
	return scanDepth(b, max)
}

// scanDepth is depth without the fast bound.
func scanDepth(b []byte, max int) int {
	d, deepest := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = skipString(b, i+1)
		case '[', '{':
			d++
			if d > deepest {
				deepest = d
				if d > max {
					return d
				}
			}
		case ']', '}':
			d--
		}
	}
	return deepest
}

// skipString returns the index of the quote that closes the string whose
// first byte is at i (len(b) if it does not close).
func skipString(b []byte, i int) int {
	start := i
	for {
		k := bytes.IndexByte(b[i:], '"')
		if k < 0 {
			return len(b)
		}
		q := i + k
		n := 0 // backslashes right before the quote
		for j := q - 1; j >= start && b[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return q
		}
		i = q + 1
	}
}

// learn records that item was produced by response resp. Both strings must
// be owned (not payload memory).
func (s *Stream) learn(item, resp string) {
	if item == "" || resp == "" {
		return
	}
	if s.resp == nil {
		s.resp = make(map[string]string)
	}
	if _, ok := s.resp[item]; ok {
		s.resp[item] = resp
		return
	}
	if len(s.order) < s.cfg.maxRealtimeItems {
		s.order = append(s.order, item)
	} else {
		delete(s.resp, s.order[s.next])
		s.order[s.next] = item
		s.next = (s.next + 1) % len(s.order)
	}
	s.resp[item] = resp
}

// outputID returns the messageId of model output item itemID of response
// respID: len(respID)+respID+len(itemID)+itemID, lengths in bytes, in decimal.
func (s *Stream) outputID(respID, itemID string) string {
	if s.lastOut != "" && respID == s.lastResp && itemID == s.lastItem {
		return s.lastOut
	}
	a, b := strconv.Itoa(len(respID)), strconv.Itoa(len(itemID))
	id := a + respID + b + itemID
	s.lastOut = id
	s.lastResp = id[len(a) : len(a)+len(respID)]
	s.lastItem = id[len(id)-len(itemID):]
	return id
}

// promptID returns an owned copy of a prompt item id.
func (s *Stream) promptID(itemID string) string {
	if itemID != s.lastPrompt {
		s.lastPrompt = strings.Clone(itemID)
	}
	return s.lastPrompt
}

// parser is the state of one Extract call.
type parser struct {
	s   *Stream
	dst []Piece
}

func (p *parser) text(src Source, id string, ci int, text string, full bool) {
	if text == "" {
		return
	}
	p.dst = append(p.dst, Piece{Key: Key{Source: src, MessageID: id, ContentIndex: ci}, Text: text, Full: full})
}

func (p *parser) noModel(src Source, id string, ci int) {
	p.dst = append(p.dst, Piece{Key: Key{Source: src, MessageID: id, ContentIndex: ci}, NoModel: true})
}

// smallIDs holds the decimal strings of small message indices.
var smallIDs = func() (t [256]string) {
	for i := range t {
		t[i] = strconv.Itoa(i)
	}
	return t
}()

// itoa returns the decimal string of a non-negative index.
func itoa(i int) string {
	if i >= 0 && i < len(smallIDs) {
		return smallIDs[i]
	}
	return strconv.Itoa(i)
}

// kind names a JSON value's type for error messages.
func kind(r gjson.Result) string {
	switch r.Type {
	case gjson.Null:
		if !r.Exists() {
			return "nothing"
		}
		return "null"
	case gjson.False, gjson.True:
		return "boolean"
	case gjson.Number:
		return "number"
	case gjson.String:
		return "string"
	}
	if r.IsArray() {
		return "array"
	}
	return "object"
}

// absent reports whether a value is missing or JSON null.
func absent(r gjson.Result) bool { return r.Type == gjson.Null }

// items calls f with the index and value of each element of the array v,
// stopping at the first error; an absent v has none. path names v in the
// error for a v that is not an array (called only then).
func items(v gjson.Result, path func() string, f func(i int, e gjson.Result) error) error {
	if absent(v) {
		return nil
	}
	if !v.IsArray() {
		return shapeErr(path(), "array", v)
	}
	var err error
	i := 0
	v.ForEach(func(_, e gjson.Result) bool {
		err = f(i, e)
		i++
		return err == nil
	})
	return err
}

func shapeErr(path, want string, got gjson.Result) error {
	return fmt.Errorf("%w: %s: want %s, got %s", ErrShape, path, want, kind(got))
}

func dupErr(path, key string) error {
	return fmt.Errorf("%w: %s: duplicate key %q", ErrShape, path, key)
}

// str returns v's string, "" for a missing or null v, or an error for another type.
func str(v gjson.Result, path func() string) (string, error) {
	switch v.Type {
	case gjson.String:
		return sval(v), nil
	case gjson.Null:
		return "", nil
	}
	return "", shapeErr(path(), "string", v)
}

// index returns v as an index in [0, limit), def when v is missing or null.
func index(v gjson.Result, def, limit int, path func() string) (int, error) {
	if absent(v) {
		return def, nil
	}
	if v.Type != gjson.Number {
		return 0, shapeErr(path(), "integer", v)
	}
	n := v.Num
	if n != float64(int64(n)) || n < 0 || n >= float64(limit) {
		return 0, fmt.Errorf("%w: %s: want integer in [0, %d)", ErrShape, path(), limit)
	}
	return int(n), nil
}

// maxMessageIndex bounds choice indices (they become messageIds).
const maxMessageIndex = 1 << 31

// read fills vals (len(names) long) with the values of the keys names from
// obj, an object, in one pass. A known key that appears twice is an error:
// JSON parsers disagree on which copy wins, so text could escape analysis.
func read(obj gjson.Result, names []string, vals []gjson.Result, path func() string) error {
	var err error
	obj.ForEach(func(k, v gjson.Result) bool {
		for i, n := range names {
			if k.Str == n {
				if vals[i].Exists() {
					err = dupErr(path(), n)
					return false
				}
				vals[i] = v
				return true
			}
		}
		return true
	})
	return err
}
