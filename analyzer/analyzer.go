package analyzer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
	"unicode/utf8"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/extract"
	"github.com/openrai/raiserver/segmenter"
)

// Errors returned by Session.Process. They wrap extract's sentinels where the
// payload is at fault; the gRPC adapter maps all of them to INVALID_ARGUMENT,
// except ErrLimit, which it reports as RESOURCE_EXHAUSTED.
var (
	ErrUnknownAPI    = errors.New("analyzer: unknown apiName")
	ErrUnknownSource = errors.New("analyzer: unknown sourceType")
	ErrTooLarge      = errors.New("analyzer: payload over the size limit")
	ErrLimit         = errors.New("analyzer: stream limit exceeded")
)

// Analyzer turns payloads into analysis events. It is immutable after New and
// safe for concurrent use; each stream gets its own Session.
type Analyzer struct {
	cls classifiers.Classifier
	cfg config
	// enabled lists the enabled categories in wire order.
	enabled []classifiers.Category
	// timed is set when segments are timed: a deadline or an observer is set.
	timed bool
}

// New returns an Analyzer that classifies with cls. Options are validated once, here.
func New(cls classifiers.Classifier, opts ...Option) (*Analyzer, error) {
	if cls == nil {
		return nil, fmt.Errorf("%w: nil classifier", ErrConfig)
	}
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	a := &Analyzer{cls: cls, cfg: cfg, timed: cfg.observer != nil || cfg.segmentDeadline > 0}
	for c := range classifiers.NumCategories {
		if cfg.categories[c].Enabled {
			a.enabled = append(a.enabled, c)
		}
	}
	return a, nil
}

// Enabled returns the enabled categories in wire order. Callers must not modify it.
func (a *Analyzer) Enabled() []classifiers.Category { return a.enabled }

// MaxPayloadBytes returns the payload size limit.
func (a *Analyzer) MaxPayloadBytes() int { return a.cfg.maxPayloadBytes }

// EventKind tells the kind of an Event.
type EventKind uint8

// Event kinds.
const (
	// KindResult is an AnalysisResult for a segment [Start, End) or NoModel content.
	KindResult EventKind = iota + 1
	// KindWatermark says text [0, End) of the item is analyzed and holds nothing blocking.
	KindWatermark
)

// CategoryResult is the outcome of one category on one segment.
type CategoryResult struct {
	Severity uint8
	Risk     Risk
	Blocking bool
}

// Event is one analysis event of a stream. Results carry one entry per
// category in Categories; only the enabled ones (Analyzer.Enabled) are meaningful.
type Event struct {
	Kind       EventKind
	Key        extract.Key
	Start, End int
	NoModel    bool
	Blocking   bool
	// DeadlineExceeded is set on a result whose classification overran the
	// segment deadline (WithSegmentDeadline). Under FailClosed such a result
	// is sent even when nothing was detected, and every enabled category is
	// blocking.
	DeadlineExceeded bool
	Categories       [classifiers.NumCategories]CategoryResult
}

// item is the state of one text item of a stream.
type item struct {
	key extract.Key
	// text is what was received for the key, in arrival order, from the
	// context of the segment not yet cut on. Realtime items also keep their
	// current version, so that a "done" event that repeats earlier deltas
	// can be compared exactly (extract.Text, docs/protocol.md).
	text extract.Text
	// segStart is where the current, not yet cut, segment starts.
	segStart int
	// watermark is the last watermark sent.
	watermark int
	// blocked is set by the first blocking segment, which starts at blockAt;
	// the watermark never moves past blockAt.
	blocked bool
	blockAt int
	noModel bool
	seg     *segmenter.Segmenter
}

// Session is the analysis state of one stream. It is not safe for concurrent use.
type Session struct {
	a        *Analyzer
	ext      *extract.Stream
	items    map[extract.Key]*item
	order    []*item
	dirty    []*item
	pieces   []extract.Piece
	findings []classifiers.Finding
	total    int
	log      *slog.Logger
}

// NewSession starts the state of a new stream.
func (a *Analyzer) NewSession() *Session {
	return &Session{
		a:     a,
		ext:   extract.NewStream(),
		items: make(map[extract.Key]*item),
		log:   a.cfg.logger,
	}
}

// Process analyzes one request and appends the events it produces to dst.
// On error it returns dst with nothing of the failed request added; the
// caller should then Finish the session to deliver what earlier requests left
// pending. Error messages name the problem, never the payload's text.
func (s *Session) Process(dst []Event, apiName, sourceType string, payload []byte) ([]Event, error) {
	api, ok := extract.ParseAPI(apiName)
	if !ok {
		return dst, fmt.Errorf("%w %q", ErrUnknownAPI, clip(apiName))
	}
	src, ok := extract.ParseSource(sourceType)
	if !ok {
		return dst, fmt.Errorf("%w %q", ErrUnknownSource, clip(sourceType))
	}
	if len(payload) > s.a.cfg.maxPayloadBytes {
		return dst, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(payload), s.a.cfg.maxPayloadBytes)
	}
	var err error
	s.pieces, err = s.ext.Extract(s.pieces[:0], api, src, payload)
	if err != nil {
		return dst, err
	}
	// Check limits for the whole request before changing any state, so that a
	// failed request leaves nothing half-applied.
	newItems, newBytes := 0, 0
	for i := range s.pieces {
		p := &s.pieces[i]
		if _, ok := s.items[p.Key]; !ok {
			newItems++ // an upper bound: a key may repeat within the request
		}
		newBytes += len(p.Text)
	}
	if len(s.items)+newItems > s.a.cfg.maxItems && len(s.items)+s.countNew() > s.a.cfg.maxItems {
		return dst, fmt.Errorf("%w: more than %d items", ErrLimit, s.a.cfg.maxItems)
	}
	if s.total+newBytes > s.a.cfg.maxStreamTextBytes {
		return dst, fmt.Errorf("%w: more than %d bytes of text", ErrLimit, s.a.cfg.maxStreamTextBytes)
	}
	s.dirty = s.dirty[:0]
	for i := range s.pieces {
		dst = s.apply(dst, api, &s.pieces[i])
	}
	for _, it := range s.dirty {
		dst = s.advance(dst, it, false)
	}
	clear(s.pieces) // drop references to payload strings
	return dst, nil
}

// countNew counts distinct keys of s.pieces not yet known.
func (s *Session) countNew() int {
	seen := make(map[extract.Key]struct{})
	for i := range s.pieces {
		k := s.pieces[i].Key
		if _, ok := s.items[k]; !ok {
			seen[k] = struct{}{}
		}
	}
	return len(seen)
}

// Finish analyzes every remaining byte of every item and appends the final
// events. Call it once, when the client half-closes (or before reporting an error).
func (s *Session) Finish(dst []Event) []Event {
	for _, it := range s.order {
		dst = s.advance(dst, it, true)
	}
	return dst
}

func (s *Session) item(k extract.Key, api extract.API) *item {
	if it, ok := s.items[k]; ok {
		return it
	}
	it := &item{key: k, text: extract.NewText(api), seg: segmenter.NewMinMax(s.a.cfg.minSegmentBytes, s.a.cfg.maxSegmentBytes)}
	s.items[k] = it
	s.order = append(s.order, it)
	return it
}

func (s *Session) markDirty(it *item) {
	for _, d := range s.dirty {
		if d == it {
			return
		}
	}
	s.dirty = append(s.dirty, it)
}

// apply adds one piece of a request in api to its item.
func (s *Session) apply(dst []Event, api extract.API, p *extract.Piece) []Event {
	it := s.item(p.Key, api)
	if p.NoModel {
		if !it.noModel {
			it.noModel = true
			end := it.text.Len()
			dst = append(dst, Event{Kind: KindResult, Key: it.key, Start: end, End: end, NoModel: true})
		}
		return dst
	}
	text := it.text.Add(p)
	if text == "" {
		return dst
	}
	s.total += len(text)
	s.markDirty(it)
	return dst
}

// advance cuts and analyzes every complete segment of it (every remaining
// byte when atEOF) and then moves its watermark.
func (s *Session) advance(dst []Event, it *item, atEOF bool) []Event {
	// With a deadline or an observer, each segment is timed from the end of
	// the previous one (one clock read per segment): the time covers cutting
	// and classifying it.
	var t time.Duration
	if s.a.timed {
		t = clock()
	}
	for it.segStart < it.text.Len() {
		n := it.seg.Next(it.text.Slice(it.segStart, it.text.Len()), atEOF)
		if n <= 0 {
			break
		}
		dst, t = s.analyze(dst, it, it.segStart, it.segStart+n, t)
		it.segStart += n
	}
	// Nothing before the next segment's context is read again.
	it.text.Forget(s.contextStart(it, it.segStart))
	limit := it.segStart
	if it.blocked {
		limit = it.blockAt
	}
	if limit > it.watermark {
		it.watermark = limit
		dst = append(dst, Event{Kind: KindWatermark, Key: it.key, End: it.watermark})
	}
	return dst
}

// epoch is the origin of clock.
var epoch = time.Now()

// clock reads the monotonic clock only (time.Now also reads the wall clock).
func clock() time.Duration { return time.Since(epoch) }

// analyze classifies segment [start, end) of it, with up to contextBytes of
// the text before it, and appends a result if anything is detected (or, under
// FailClosed, if the segment overran the deadline). When timed, t0 is the
// clock reading the segment's time counts from; analyze returns the reading
// after it.
func (s *Session) analyze(dst []Event, it *item, start, end int, t0 time.Duration) ([]Event, time.Duration) {
	from := s.contextStart(it, start)
	window := it.text.Slice(from, end)
	cfg := &s.a.cfg
	s.findings = s.a.cls.Classify(s.findings[:0], window)
	var ev Event
	var t1 time.Duration
	if s.a.timed {
		t1 = clock()
		took := t1 - t0
		ev.DeadlineExceeded = cfg.segmentDeadline > 0 && took > cfg.segmentDeadline
		if cfg.observer != nil {
			cfg.observer.SegmentAnalyzed(SegmentStats{Source: it.key.Source, Bytes: end - start, Took: took,
				Late: ev.DeadlineExceeded, FailMode: cfg.failMode})
		}
		if ev.DeadlineExceeded {
			s.log.Warn("segment analysis over deadline",
				"source", it.key.Source, "message_id", it.key.MessageID, "content_index", it.key.ContentIndex,
				"start", start, "end", end, "took", took, "deadline", cfg.segmentDeadline, "fail_mode", cfg.failMode.String())
		}
	}
	failClosed := ev.DeadlineExceeded && cfg.failMode == FailClosed
	found := false
	for _, f := range s.findings {
		// A finding belongs to the segment that holds its end; findings that
		// end in the context were reported with the segment before.
		if from+f.End <= start || f.Category >= classifiers.NumCategories || f.Severity == 0 {
			continue
		}
		cc := s.a.cfg.categories[f.Category]
		if !cc.Enabled {
			continue
		}
		sev := min(f.Severity, classifiers.MaxSeverity)
		if sev > ev.Categories[f.Category].Severity {
			ev.Categories[f.Category].Severity = sev
		}
		found = true
		if s.log.Enabled(context.Background(), slog.LevelDebug) {
			s.log.Debug("finding",
				"source", it.key.Source, "message_id", it.key.MessageID, "content_index", it.key.ContentIndex,
				"category", f.Category.String(), "severity", sev, "rule", f.Rule,
				"start", from+f.Start, "end", from+f.End)
		}
	}
	if !found && !failClosed {
		return dst, t1
	}
	ev.Kind, ev.Key, ev.Start, ev.End = KindResult, it.key, start, end
	for _, c := range s.a.enabled {
		r := &ev.Categories[c]
		r.Risk = RiskOf(r.Severity)
		r.Blocking = failClosed || r.Risk != RiskNone && r.Risk >= s.a.cfg.categories[c].BlockAt
		ev.Blocking = ev.Blocking || r.Blocking
	}
	if ev.Blocking && !it.blocked {
		it.blocked, it.blockAt = true, start
	}
	return append(dst, ev), t1
}

// contextStart returns where the context of it's segment that starts at
// start begins (ContextStart), in it's kept text. Kept text starts at an
// earlier segment's context start or at the start of a Realtime item's
// current version (a piece's first byte): a rune start no later than this
// context's start, so the answer is the same as on the whole text.
func (s *Session) contextStart(it *item, start int) int {
	kept := it.text.Kept()
	return kept + ContextStart(it.text.Slice(kept, start), start-kept, s.a.cfg.contextBytes)
}

// ContextStart returns where the context of a segment that starts at
// start in text begins: contextBytes before it (analyzer.WithContextBytes),
// moved forward to the start of a UTF-8 sequence, never before 0. The
// analyzer classifies text[ContextStart(text, start, n):end] for the segment
// [start, end); training and the quality bench cut items the same way
// (classifiers/linear/train.Windows).
func ContextStart(text []byte, start, contextBytes int) int {
	from := max(0, start-contextBytes)
	for from < start && from > 0 && !utf8.RuneStart(text[from]) {
		from++
	}
	return from
}

// clip bounds a client-supplied name before it goes into an error message.
func clip(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}
