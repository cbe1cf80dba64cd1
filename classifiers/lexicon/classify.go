package lexicon

import (
	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/internal/match"
)

// event is one matched word or phrase of the normalized text.
type event struct {
	info       int32
	ns, ne     int32 // normalized byte range
	ts, te     int32 // token range
	sent       int32 // sentence index
	suppressed bool
}

// pending is a finding before context modifiers, in normalized offsets.
type pending struct {
	cat    classifiers.Category
	sev    int8
	firm   uint8
	slur   bool
	tgt    uint8 // a rule's target flags (tgtSelf, tgtOther)
	ns, ne int32
	as, ae int32 // a rule's anchor word (0, 0 for a lone term)
	sent   int32
	rule   string
}

// modifier is a context rule that fired.
type modifier struct {
	cats   catSet
	delta  int8
	reach  uint8
	lo, hi int32 // sentences covered
}

type scratch struct {
	norm    []byte
	offs    []int32
	matches []match.Match
	events  []event
	found   []pending
	mods    []modifier
	stack   []int32
	tmp     []event
	trig    []match.Match // all matches; trigger patterns as -1-p
	w       walker        // token and sentence counts of norm
	// leet: norm holds a '1' that touches a letter; altI and altL are
	// norm with those read as i and as l.
	leet       bool
	altI, altL []byte
	own, near  []span  // sentences scanned for context words
	masks      []mask  // mayFind: per sentence of own, the classes found in it
	idioms     []int32 // mayFind: the matches of s.trig whose key is an idiom
}

// span is a byte range [From, To) of the normalized text.
type span = match.Span

func newScratch() *scratch {
	return &scratch{
		norm:    make([]byte, 0, 4096),
		offs:    make([]int32, 0, 4097),
		matches: make([]match.Match, 0, 256),
		events:  make([]event, 0, 256),
		found:   make([]pending, 0, 32),
		mods:    make([]modifier, 0, 8),
		stack:   make([]int32, 0, 16),
	}
}

// Classify appends the findings for text to dst (see classifiers.Classifier).
func (c *Classifier) Classify(dst []classifiers.Finding, text []byte) []classifiers.Finding {
	if len(text) == 0 {
		return dst
	}
	s := c.pool.Get().(*scratch)
	dst = c.classify(s, dst, text)
	c.release(s)
	return dst
}

// release puts s back in the pool unless a large text grew its buffers,
// which the pool would then keep alive.
func (c *Classifier) release(s *scratch) {
	if cap(s.norm) <= 1<<20 && cap(s.altI) <= 1<<20 && cap(s.matches) <= 1<<16 && cap(s.w.blocks) <= 1<<14 {
		c.pool.Put(s)
	}
}

// ClassifyNormalized is Classify for a caller that has already normalized
// and respelled text: norm and offs must be what Respell returns for what
// normalize.New().Append(nil, nil, text) returns for the same text (the
// normalized bytes with respelled words read back, and their offset map).
// Findings are those of Classify(dst, text), spans in text. It lets a
// caller that feeds several classifiers normalize and respell once (the
// ensemble hands the same bytes to the linear model's ScoresNormalized).
// Norm that was not respelled is classified as written. It neither
// modifies nor keeps norm and offs, and allocates nothing in steady state.
func (c *Classifier) ClassifyNormalized(dst []classifiers.Finding, text, norm []byte, offs []int32) []classifiers.Finding {
	if len(text) == 0 {
		return dst
	}
	s := c.pool.Get().(*scratch)
	ownNorm, ownOffs := s.norm, s.offs
	s.norm, s.offs = norm, offs
	dst = c.classifyNorm(s, dst, text)
	s.norm, s.offs = ownNorm, ownOffs
	c.release(s)
	return dst
}

func (c *Classifier) classify(s *scratch, dst []classifiers.Finding, text []byte) []classifiers.Finding {
	c.normalize(s, text)
	return c.classifyNorm(s, dst, text)
}

// normalize puts text normalized and respelled, and its offset map, in
// s.norm and s.offs: what the rules read.
func (c *Classifier) normalize(s *scratch, text []byte) {
	s.norm, s.offs = c.norm.Append(s.norm[:0], s.offs[:0], text)
	s.norm, s.offs, _ = c.Respell(s.norm, s.offs)
}

// classifyNorm classifies text whose normalized form and offset map are in
// s.norm and s.offs; it only reads them.
func (c *Classifier) classifyNorm(s *scratch, dst []classifiers.Finding, text []byte) []classifiers.Finding {
	// Trigger words first, over the whole text.
	s.readings()
	s.matches = s.scanAll(c.m, s.matches[:0])
	if !c.anyTrigger(s.matches, text, s.offs) {
		return dst
	}
	s.w = walker{blocks: s.w.blocks[:0]}
	// Context words in two steps. Every finding comes from a trigger: a
	// term, or a rule anchored on one whose other words are all in the
	// anchor's sentence; what suppresses a word is in its sentence too. So
	// the sentences that hold a trigger decide whether there is a finding
	// at all, and only then are their neighbours read, for the context
	// modifiers, which reach c.reach sentences away.
	c.ownSentences(s, text)
	s.trig = append(s.trig[:0], s.matches...)
	for i := range s.trig {
		s.trig[i].Pattern = -1 - s.trig[i].Pattern // mark as trigger
	}
	s.trig = c.scanSpans(s, s.trig, s.own)
	if !c.mayFind(s, text) {
		return dst
	}
	c.buildEvents(s, text)
	if !c.decide(s) {
		return dst
	}
	if c.nearSentences(s) {
		// The neighbours add events in their own sentences only: the
		// same findings, and the modifiers around them.
		s.trig = c.scanSpans(s, s.trig, s.near)
		c.buildEvents(s, text)
		c.decide(s)
	}
	c.runRules(s, actModify)
	return c.report(s, dst)
}
