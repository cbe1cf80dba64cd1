package lexicon

import (
	"bytes"
	"math/bits"
	"slices"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/internal/match"
	"github.com/openrai/raiserver/classifiers/internal/normalize"
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
	ns, ne int32
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
// text: norm and offs must be what normalize.New().Append(nil, nil, text)
// returns for the same text (the normalized bytes and their offset map).
// Findings are those of Classify(dst, text), spans in text. It lets a
// caller that feeds several classifiers normalize once (the ensemble hands
// the same bytes to the linear model's ScoresNormalized). It neither
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
	s.norm, s.offs = c.norm.Append(s.norm[:0], s.offs[:0], text)
	return c.classifyNorm(s, dst, text)
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

// report appends the findings of s to dst: those of the rules (s.found)
// and the lone terms of the events that are not suppressed, lowered by the
// context modifiers (s.mods), with spans in the original text.
func (c *Classifier) report(s *scratch, dst []classifiers.Finding) []classifiers.Finding {
	// Lone terms.
	for ei := range s.events {
		ev := &s.events[ei]
		if ev.suppressed {
			continue
		}
		in := &c.infos[ev.info]
		ne := ev.ne
		if in.prefix {
			for int(ne) < len(s.norm) && normalize.IsWordByte(s.norm[ne]) {
				ne++
			}
		}
		for _, ti := range in.terms {
			t := &c.terms[ti]
			s.found = append(s.found, pending{cat: t.cat, sev: int8(t.sev), firm: t.firm, slur: t.slur,
				ns: ev.ns, ne: ne, sent: ev.sent, rule: t.id})
		}
	}
	// Context modifiers, then report.
	for i := range s.found {
		f := &s.found[i]
		if !c.cats.has(f.cat) {
			continue
		}
		sev := f.sev
		var low int8
		for j := range s.mods {
			m := &s.mods[j]
			if m.cats.has(f.cat) && f.firm <= m.reach && f.sent >= m.lo && f.sent <= m.hi && m.delta < low {
				low = m.delta
			}
		}
		if low < 0 {
			sev += low
			if sev < 1 {
				sev = 1
			}
		}
		start, end := normalize.Span(s.offs, int(f.ns), int(f.ne))
		if dup(dst, f, sev, start) {
			continue
		}
		dst = append(dst, classifiers.Finding{Category: f.cat, Severity: uint8(sev), Start: start, End: end, Rule: f.rule})
	}
	return dst
}

// dup reports whether f is already in dst with the same rule (the same rule
// firing from two anchors of one match).
func dup(dst []classifiers.Finding, f *pending, sev int8, start int) bool {
	for i := len(dst) - 1; i >= 0 && i >= len(dst)-8; i-- {
		if dst[i].Start == start && dst[i].Rule == f.rule && dst[i].Category == f.cat && dst[i].Severity == uint8(sev) {
			return true
		}
	}
	return false
}

// decide runs the suppressions and the finding rules over s.events and
// reports whether anything is found: a rule, or a term that is not
// suppressed. Rules are anchored on each event's classes, suppressions
// first, so a homonym in a safe context neither anchors a rule nor reports
// its term.
func (c *Classifier) decide(s *scratch) bool {
	s.found = s.found[:0]
	s.mods = s.mods[:0]
	for _, act := range [...]int{actSuppress, actFind} {
		c.runRules(s, act)
	}
	return len(s.found) > 0 || c.anyTerm(s)
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }

// runRules tries every rule of action act anchored on each event.
func (c *Classifier) runRules(s *scratch, act int) {
	for ei := range s.events {
		ev := &s.events[ei]
		if ev.suppressed {
			continue
		}
		for _, ri := range c.infos[ev.info].rules[act] {
			c.tryRule(s, &c.rules[ri], ei)
			if ev.suppressed {
				break
			}
		}
	}
}

// anyTerm reports whether an unsuppressed event carries a lexicon term.
func (c *Classifier) anyTerm(s *scratch) bool {
	for i := range s.events {
		if !s.events[i].suppressed && len(c.infos[s.events[i].info].terms) > 0 {
			return true
		}
	}
	return false
}

// stretchOK reports whether every normalized byte ns+j with bit j set in
// stretch came from a stretched run of the source.
func stretchOK(stretch uint64, text []byte, offs []int32, ns int) bool {
	for b := stretch; b != 0; b &= b - 1 {
		if !stretched(text, offs, ns+trailingZeros(b)) {
			return false
		}
	}
	return true
}

// anyTrigger reports whether a trigger match makes an event: a match of a
// single-letter variant ("of" for "off") whose letter did not come from a
// stretched run makes none. Without such a match there is no finding, and
// on ordinary English those false triggers were most of the lexicon's work.
func (c *Classifier) anyTrigger(ms []match.Match, text []byte, offs []int32) bool {
	for _, m := range ms {
		if c.makesEvent(&m, text, offs) {
			return true
		}
	}
	return false
}

// makesEvent reports whether trigger match m makes an event (see
// anyTrigger).
func (c *Classifier) makesEvent(m *match.Match, text []byte, offs []int32) bool {
	return c.isEvent(&c.tpats[m.Pattern], *m, text, offs)
}

// readings notes whether s.norm holds a leet '1' and, if so, makes its i
// and l readings.
func (s *scratch) readings() {
	s.leet = hasLeetOne(s.norm)
	if !s.leet {
		return
	}
	reading := func(dst []byte, r byte) []byte {
		dst = append(dst[:0], s.norm...)
		for i, ch := range dst {
			if ch == '1' && leetOne(s.norm, i) {
				dst[i] = r
			}
		}
		return dst
	}
	s.altI, s.altL = reading(s.altI, 'i'), reading(s.altL, 'l')
}

// scanAll appends the matches of m in s.norm and in its i and l readings
// of the leet '1'.
func (s *scratch) scanAll(m *match.Matcher, dst []match.Match) []match.Match {
	dst = m.AppendMatches(dst, s.norm)
	if s.leet {
		dst = m.AppendMatches(dst, s.altI)
		dst = m.AppendMatches(dst, s.altL)
	}
	return dst
}

// ownSentences sets s.own to the sentences that hold the start of a
// trigger match that makes an event, in order.
func (c *Classifier) ownSentences(s *scratch, text []byte) {
	s.own = s.own[:0]
	t := s.norm
	sorted := true
	for i := range s.matches {
		m := &s.matches[i]
		st := m.End - c.tpats[m.Pattern].n
		n := len(s.own)
		if n > 0 && st >= s.own[n-1].From && st < s.own[n-1].To || !c.makesEvent(m, text, s.offs) {
			continue
		}
		sp := span{From: int32(s.w.sentStart(t, int(st))), To: int32(s.w.sentEnd(t, int(st)))}
		if n > 0 && sp.From < s.own[n-1].From {
			sorted = false
		}
		s.own = append(s.own, sp)
	}
	if !sorted {
		slices.SortFunc(s.own, func(x, y span) int { return int(x.From - y.From) })
		s.own = slices.Compact(s.own)
	}
}

// nearSentences sets s.near to the sentences within c.reach of one in
// s.own that are not in it, in order, and reports whether there are any.
func (c *Classifier) nearSentences(s *scratch) bool {
	s.near = s.near[:0]
	t := s.norm
	for _, o := range s.own {
		for x, k := int(o.From), 0; k < c.reach && x > 0; k++ {
			a := s.w.sentStart(t, x-1)
			s.near = append(s.near, span{From: int32(a), To: int32(x)})
			x = a
		}
		for y, k := int(o.To), 0; k < c.reach && y < len(t); k++ {
			b := s.w.sentEnd(t, y)
			s.near = append(s.near, span{From: int32(y), To: int32(b)})
			y = b
		}
	}
	slices.SortFunc(s.near, func(x, y span) int { return int(x.From - y.From) })
	s.near = slices.Compact(s.near)
	// Drop the sentences of s.own (both in order).
	w, j := 0, 0
	for _, sp := range s.near {
		for j < len(s.own) && s.own[j].From < sp.From {
			j++
		}
		if j < len(s.own) && s.own[j].From == sp.From {
			continue
		}
		s.near[w] = sp
		w++
	}
	s.near = s.near[:w]
	return w > 0
}

// scanSpans appends the context-word matches that start in the sentences
// of spans (in order) to dst: those of s.norm and of its i and l readings
// of the leet '1'. The readings' matches come after all of s.norm's, which
// keeps the order of any two with the same span, the only order
// buildEvents keeps.
func (c *Classifier) scanSpans(s *scratch, dst []match.Match, spans []span) []match.Match {
	dst = c.cm.AppendStarting(dst, s.norm, spans)
	if s.leet {
		dst = c.cm.AppendStarting(dst, s.altI, spans)
		dst = c.cm.AppendStarting(dst, s.altL, spans)
	}
	return dst
}

// leetOne reports whether the '1' at t[i] touches a letter, that is, stands
// for a letter in a word ("k1ll").
func leetOne(t []byte, i int) bool {
	return i > 0 && t[i-1] >= 'a' && t[i-1] <= 'z' || i+1 < len(t) && t[i+1] >= 'a' && t[i+1] <= 'z'
}

func hasLeetOne(t []byte) bool {
	for i := 0; ; i++ {
		k := bytes.IndexByte(t[i:], '1')
		if k < 0 {
			return false
		}
		if i += k; leetOne(t, i) {
			return true
		}
	}
}

// mayFind reports whether the matches in s.trig, those of the trigger
// words and of the context words in their sentences (s.own), can make a
// finding, as decide would tell after buildEvents: false only when none
// can, which is the usual answer for everyday text, whose trigger words
// are homonyms ("take", "child", "hang") that no rule completes. It does
// not build events. A trigger's lexicon term is reported unless it is
// suppressed, which it always is inside an idiom (a key a one-slot rule
// suppresses, such as "be hard on": whatever suppresses the idiom
// suppresses the words inside it too); that is checked first, as a term
// elsewhere ends the search at once. Then each sentence is read as a set
// of classes: a finding rule anchored on a trigger needs a word of each of
// its other slots in the anchor's sentence. Compound events are counted in
// a sentence that holds both their classes, in any order; a compound that
// can lead to a finding on its own (none in the embedded rules) turns the
// shortcut off.
func (c *Classifier) mayFind(s *scratch, text []byte) bool {
	if c.compoundTrigger {
		return true
	}
	trig := s.trig[:len(s.matches)]
	s.idioms = s.idioms[:0]
	for i, m := range s.trig {
		if pr := c.patOf(m); pr.kind&keyIdiom != 0 && c.isEvent(pr, m, text, s.offs) {
			s.idioms = append(s.idioms, int32(i))
		}
	}
	for _, m := range trig {
		pr := &c.tpats[-1-m.Pattern]
		if pr.kind&keyTerm != 0 && c.isEvent(pr, m, text, s.offs) && !c.inIdiom(s, m.End-pr.n, &c.infos[pr.info]) {
			return true
		}
	}
	// The classes of each sentence.
	own := s.own
	ms := slices.Grow(s.masks[:0], len(own))[:len(own)]
	clear(ms)
	s.masks = ms
	j := 0
	for _, m := range s.trig {
		pr := c.patOf(m)
		ns := m.End - pr.n
		if j = sentenceOf(own, ns, j); j < 0 {
			j = 0
			continue
		}
		if c.isEvent(pr, m, text, s.offs) {
			ms[j].or(&c.infos[pr.info].m)
		}
	}
	for j := range ms {
		for _, cp := range c.compounds {
			if ms[j].has(cp.a) && ms[j].has(cp.b) {
				ms[j].or(&c.infos[cp.info].m)
			}
		}
	}
	j = 0
	for _, m := range trig {
		pr := &c.tpats[-1-m.Pattern]
		if pr.kind&keyAnchor == 0 {
			continue
		}
		ns := m.End - pr.n
		if j = sentenceOf(own, ns, j); j < 0 {
			j = 0
			continue
		}
		if c.isEvent(pr, m, text, s.offs) && c.mayAnchor(&c.infos[pr.info], &ms[j]) {
			return true
		}
	}
	return false
}

// isEvent reports whether match m of pattern pr makes an event (see
// stretchOK).
func (c *Classifier) isEvent(pr *patRec, m match.Match, text []byte, offs []int32) bool {
	return pr.stretch == 0 || stretchOK(pr.stretch, text, offs, int(m.End-pr.n))
}

// patOf returns the patRec of a match of s.trig.
func (c *Classifier) patOf(m match.Match) *patRec {
	if m.Pattern < 0 {
		return &c.tpats[-1-m.Pattern]
	}
	return &c.cpats[m.Pattern]
}

// sentenceOf returns the index of the span of own that holds byte i, or
// -1, looking from index j on (either way).
func sentenceOf(own []span, i int32, j int) int {
	for j > 0 && i < own[j].From {
		j--
	}
	for j < len(own) && i >= own[j].To {
		j++
	}
	if j < len(own) && i >= own[j].From {
		return j
	}
	return -1
}

// mayAnchor reports whether a finding rule anchored on key in can match in
// a sentence with the classes of m: each of its other slots meets m.
func (c *Classifier) mayAnchor(in *info, m *mask) bool {
	for _, ri := range in.rules[actFind] {
		ru := &c.rules[ri]
		ok := true
		for k := range ru.slots {
			if k != ru.anchor && !ru.slots[k].m.meets(m) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// inIdiom reports whether the event of key in at normalized byte ns lies
// inside the event of an idiom (s.idioms) that starts at or before it: its
// tokens within the idiom's, which is what a suppression reaches.
func (c *Classifier) inIdiom(s *scratch, ns int32, in *info) bool {
	if len(s.idioms) == 0 {
		return false
	}
	w := &s.w
	w.walk(s.norm, int(ns))
	ts := w.tok
	te := ts + in.words
	for _, i := range s.idioms {
		m := s.trig[i]
		pr := c.patOf(m)
		ins := m.End - pr.n
		if ins > ns {
			continue
		}
		w.walk(s.norm, int(ins))
		its := w.tok
		ite := its + c.infos[pr.info].words
		if its <= ts && te <= ite && ts < ite {
			return true
		}
	}
	return false
}

// buildEvents turns matcher matches into events with token and sentence
// indices, sorted by start.
func (c *Classifier) buildEvents(s *scratch, text []byte) {
	s.events = s.events[:0]
	split := 0 // events before it come from trigger matches
	for i, m := range s.trig {
		if i == len(s.matches) {
			split = len(s.events)
		}
		pr := c.patOf(m)
		if !c.isEvent(pr, m, text, s.offs) {
			continue
		}
		ns := int(m.End - pr.n)
		s.events = append(s.events, event{info: pr.info, ns: int32(ns), ne: m.End})
	}
	if len(s.trig) == len(s.matches) {
		split = len(s.events)
	}
	s.sortEvents(split)
	// Token and sentence indices.
	w := &s.w
	for i := range s.events {
		ev := &s.events[i]
		w.walk(s.norm, int(ev.ns))
		ev.ts = w.tok
		ev.te = w.tok + c.infos[ev.info].words
		ev.sent = w.sent
	}
	// Compound events: class A directly followed by class B. Compounds
	// whose A class no event holds are skipped (bit k of info.compA: the
	// key is in compound k's class A; all bits set past 64 compounds).
	// The events in some class A are listed once (s.stack, by index) and
	// again after a compound adds events.
	var have uint64
	s.stack = s.stack[:0]
	for i := range s.events {
		if a := c.infos[s.events[i].info].compA; a != 0 {
			have |= a
			s.stack = append(s.stack, int32(i))
		}
	}
	for k, cp := range c.compounds {
		if k < 64 && have&(1<<k) == 0 {
			continue
		}
		s.tmp = s.tmp[:0]
		for _, i := range s.stack {
			i := int(i)
			e1 := &s.events[i]
			if !c.infos[e1.info].m.has(cp.a) {
				continue
			}
			for j := i + 1; j < len(s.events); j++ {
				e2 := &s.events[j]
				if e2.ts > e1.te {
					break
				}
				if e2.ts == e1.te && e2.sent == e1.sent && c.infos[e2.info].m.has(cp.b) {
					s.tmp = append(s.tmp, event{info: cp.info, ns: e1.ns, ne: e2.ne, ts: e1.ts, te: e2.te, sent: e1.sent})
				}
			}
		}
		if len(s.tmp) == 0 {
			continue
		}
		for _, ev := range s.tmp {
			s.insert(ev)
		}
		have |= c.infos[cp.info].compA
		s.stack = s.stack[:0]
		for i := range s.events {
			if c.infos[s.events[i].info].compA != 0 {
				s.stack = append(s.stack, int32(i))
			}
		}
	}
}

// walker counts tokens (runs of word bytes) and sentences of normalized
// text before a byte: walk(t, end) sets tok and sent. It keeps, per 64
// bytes of t read so far, the bits of the bytes that start a token and of
// those that start a new sentence count, with the counts before them, so a
// count is one block lookup and two popcounts.
type walker struct {
	tok, sent int32
	blocks    []walkBlock // blocks[k]: bytes [64k, 64k+64) of t
	// The state after the last block: its counts, whether its last byte
	// is a word byte.
	nTok, nSent int32
	prevWord    bool
}

type walkBlock struct {
	starts, incs uint64 // bytes that start a token; breaks that count
	tok, sent    int32  // counts before the block
}

// walk sets w.tok and w.sent to the tokens and sentences of t[:end]
// (sentence breaks as isSentenceBreak has them; a run of breaks and spaces
// counts once). t must be the same text in every call on one walker.
func (w *walker) walk(t []byte, end int) {
	b := end >> 6
	for len(w.blocks) <= b {
		w.build(t)
	}
	blk := &w.blocks[b]
	below := uint64(1)<<(uint(end)&63) - 1
	w.tok = blk.tok + int32(bits.OnesCount64(blk.starts&below))
	w.sent = blk.sent + int32(bits.OnesCount64(blk.incs&below))
}

// upto builds the blocks of t up to the one holding byte i.
func (w *walker) upto(t []byte, i int) {
	for len(w.blocks) <= i>>6 {
		w.build(t)
	}
}

// sentStart returns the first byte of the sentence holding byte i of t:
// the byte after the last sentence break before i that counts, or 0.
func (w *walker) sentStart(t []byte, i int) int {
	w.upto(t, i)
	b := i >> 6
	m := w.blocks[b].incs & (1<<(uint(i)&63) - 1)
	for m == 0 {
		if b--; b < 0 {
			return 0
		}
		m = w.blocks[b].incs
	}
	return b<<6 + 63 - bits.LeadingZeros64(m) + 1
}

// sentEnd returns the end of the sentence holding byte i of t: the byte
// after the first sentence break at or after i that counts, or len(t).
func (w *walker) sentEnd(t []byte, i int) int {
	w.upto(t, i)
	b := i >> 6
	m := w.blocks[b].incs &^ (1<<(uint(i)&63) - 1)
	for m == 0 {
		if b++; b<<6 >= len(t) {
			return len(t)
		}
		w.upto(t, b<<6)
		m = w.blocks[b].incs
	}
	return b<<6 + trailingZeros(m) + 1
}

// build appends the next block of t (past the end of t: an empty one).
func (w *walker) build(t []byte) {
	base := len(w.blocks) * 64
	end := min(base+64, len(t))
	var word, brk uint64
	if end-base == 64 {
		word, _, brk = normalize.Marks64((*[64]byte)(t[base:end]))
	} else {
		word, _, brk = normalize.Marks(t[base:end])
	}
	var prev uint64
	if w.prevWord {
		prev = 1
	}
	blk := walkBlock{starts: word &^ (word<<1 | prev), tok: w.nTok, sent: w.nSent}
	for m := brk; m != 0; m &= m - 1 {
		if p := base + bits.TrailingZeros64(m); isSentenceBreak(t, p) && !afterBreak(t, p) {
			blk.incs |= 1 << uint(p-base)
		}
	}
	w.nTok += int32(bits.OnesCount64(blk.starts))
	w.nSent += int32(bits.OnesCount64(blk.incs))
	if end > base {
		w.prevWord = word>>uint(end-base-1)&1 != 0
	}
	w.blocks = append(w.blocks, blk)
}

// isSentenceBreak reports whether t[p] ends a sentence: '!', '?', ';', a
// line break, or '.' not followed by a word byte ("e.g" and "3.5" go on).
func isSentenceBreak(t []byte, p int) bool {
	switch t[p] {
	case '!', '?', ';', '\n':
		return true
	case '.':
		return p+1 == len(t) || !normalize.IsWordByte(t[p+1])
	}
	return false
}

// afterBreak reports whether the last byte before t[p] other than a space
// is a sentence break, so that a break at p goes on the same run.
func afterBreak(t []byte, p int) bool {
	q := p - 1
	for q >= 0 && t[q] == ' ' {
		q--
	}
	return q >= 0 && isSentenceBreak(t, q)
}

// sortEvents orders s.events as inserting them one by one would (see
// insert): by start, longest first on ties, equal spans in their order,
// and a later exact duplicate dropped. The events before split and those
// after it each come from matches in order of their ends, so each part is
// out of order only where a longer match ends after a shorter one it
// holds: a bounded insertion sort of each and one merge put them in
// order, as a stable sort of the whole would (which is the fallback when
// the parts are further out of order than that).
func (s *scratch) sortEvents(split int) {
	ev := s.events
	a, b := ev[:split], ev[split:]
	budget := 8*len(ev) + 64
	if budget = insertionSort(a, budget); budget >= 0 {
		budget = insertionSort(b, budget)
	}
	switch {
	case budget < 0:
		slices.SortStableFunc(ev, compareEvents)
	case len(a) > 0 && len(b) > 0 && eventLess(&b[0], &a[len(a)-1]):
		// Merge through s.tmp, the first part first on ties.
		m := append(s.tmp[:0], a...)
		i, j, k := 0, split, 0
		for i < len(m) && j < len(ev) {
			if eventLess(&ev[j], &m[i]) {
				ev[k] = ev[j]
				j++
			} else {
				ev[k] = m[i]
				i++
			}
			k++
		}
		copy(ev[k:], m[i:])
		s.tmp = m
	}
	w := 0
	for i := range ev {
		dup := false
		for k := w - 1; k >= 0 && ev[k].ns == ev[i].ns; k-- {
			if ev[k].info == ev[i].info && ev[k].ne == ev[i].ne {
				dup = true
				break
			}
		}
		if !dup {
			ev[w] = ev[i]
			w++
		}
	}
	s.events = ev[:w]
}

// eventLess orders events by start, longer first.
func eventLess(a, b *event) bool { return a.ns < b.ns || a.ns == b.ns && a.ne > b.ne }

// compareEvents is eventLess as a comparison function.
func compareEvents(a, b event) int {
	switch {
	case eventLess(&a, &b):
		return -1
	case eventLess(&b, &a):
		return 1
	}
	return 0
}

// insertionSort sorts ev by eventLess, stably, moving an event by at most
// budget places in all, and returns the budget left, or -1 when it ran out
// (ev is then in some order, each equal run still in its first order).
func insertionSort(ev []event, budget int) int {
	for i := 1; i < len(ev); i++ {
		if !eventLess(&ev[i], &ev[i-1]) {
			continue
		}
		e := ev[i]
		j := i
		for j > 0 && eventLess(&e, &ev[j-1]) {
			ev[j] = ev[j-1]
			j--
		}
		ev[j] = e
		if budget -= i - j; budget < 0 {
			return -1
		}
	}
	return budget
}

// insert adds ev keeping events sorted by start (longest first on ties) and
// drops an exact duplicate (the same key found twice by the i/l rescans).
func (s *scratch) insert(ev event) {
	i := len(s.events)
	for i > 0 && (s.events[i-1].ns > ev.ns || s.events[i-1].ns == ev.ns && s.events[i-1].ne < ev.ne) {
		i--
	}
	for k := i - 1; k >= 0 && s.events[k].ns == ev.ns; k-- {
		if s.events[k].info == ev.info && s.events[k].ne == ev.ne {
			return
		}
	}
	s.events = append(s.events, event{})
	copy(s.events[i+1:], s.events[i:])
	s.events[i] = ev
}

// tryRule tries rule ru with its anchor slot on event ai and records what
// it does when it matches.
func (c *Classifier) tryRule(s *scratch, ru *rule, ai int) {
	a := &s.events[ai]
	in := &c.infos[a.info]
	if !in.m.meets(&ru.slots[ru.anchor].m) {
		return
	}
	s.stack = append(s.stack[:0], int32(ai))
	if !c.matchBack(s, ru, ru.anchor-1, ai, ai) {
		return
	}
	// s.stack holds the events of every slot, in slot order.
	evs := s.stack
	lo := &s.events[evs[0]]
	hi := &s.events[evs[len(evs)-1]]
	switch ru.act {
	case actSuppress:
		for j, si := range evs {
			if !ru.slots[j].target {
				continue
			}
			t := s.events[si]
			for k := int(si); k >= 0 && s.events[k].ts >= t.ts-8; k-- {
				if e := &s.events[k]; e.ts >= t.ts && e.te <= t.te {
					e.suppressed = true
				}
			}
			for k := int(si) + 1; k < len(s.events) && s.events[k].ts < t.te; k++ {
				if e := &s.events[k]; e.te <= t.te {
					e.suppressed = true
				}
			}
		}
	case actModify:
		m := modifier{cats: ru.cats, delta: int8(ru.sev), reach: ru.reach,
			lo: lo.sent - int32(ru.scope), hi: hi.sent + int32(ru.scope)}
		for i := len(s.mods) - 1; i >= 0 && i >= len(s.mods)-16; i-- {
			if s.mods[i] == m {
				return
			}
		}
		s.mods = append(s.mods, m)
	case actFind:
		for k := classifiers.Category(0); k < classifiers.NumCategories; k++ {
			if !ru.cats.has(k) {
				continue
			}
			s.found = append(s.found, pending{cat: k, sev: int8(ru.sev), firm: ru.firm,
				ns: lo.ns, ne: hi.ne, sent: a.sent, rule: ru.id})
		}
	}
}

// matchBack matches slots j, j-1, …, 0 before the event at index cur,
// then the slots after the anchor. On success s.stack holds one event per
// slot in slot order.
func (c *Classifier) matchBack(s *scratch, ru *rule, j int, cur, anchor int) bool {
	if j < 0 {
		// Reverse what was pushed (anchor first, then backwards) into slot
		// order, then go forward from the anchor.
		st := s.stack
		for l, r := 0, len(st)-1; l < r; l, r = l+1, r-1 {
			st[l], st[r] = st[r], st[l]
		}
		if c.matchFwd(s, ru, ru.anchor+1, anchor) {
			return true
		}
		// Undo the reversal so the caller's backtracking stays consistent.
		for l, r := 0, len(st)-1; l < r; l, r = l+1, r-1 {
			st[l], st[r] = st[r], st[l]
		}
		s.stack = st
		return false
	}
	ce := &s.events[cur]
	sl := &ru.slots[j+1] // gap between slot j and j+1 lives on slot j+1
	for k := cur - 1; k >= 0; k-- {
		e := &s.events[k]
		if e.sent != ce.sent {
			break
		}
		if e.te > ce.ts {
			continue
		}
		if ce.ts-e.te > int32(sl.gap) {
			// Events are sorted by start; an earlier start may still end
			// later only for multi-word keys, so keep scanning a little.
			if ce.ts-e.ts > int32(sl.gap)+8 {
				break
			}
			continue
		}
		if e.suppressed || !c.infos[e.info].m.meets(&ru.slots[j].m) {
			continue
		}
		s.stack = append(s.stack, int32(k))
		if c.matchBack(s, ru, j-1, k, anchor) {
			return true
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
	return false
}

// matchFwd matches slots j, j+1, … after the event at index cur.
func (c *Classifier) matchFwd(s *scratch, ru *rule, j int, cur int) bool {
	if j >= len(ru.slots) {
		return true
	}
	ce := &s.events[cur]
	sl := &ru.slots[j]
	for k := cur + 1; k < len(s.events); k++ {
		e := &s.events[k]
		if e.sent != ce.sent || e.ts-ce.te > int32(sl.gap) {
			break
		}
		if e.ts < ce.te {
			continue
		}
		if e.suppressed || !c.infos[e.info].m.meets(&sl.m) {
			continue
		}
		s.stack = append(s.stack, int32(k))
		if c.matchFwd(s, ru, j+1, k) {
			return true
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
	return false
}
