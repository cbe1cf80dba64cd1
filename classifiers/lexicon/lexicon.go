package lexicon

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/openrai/raiserver/classifiers"
	"github.com/openrai/raiserver/classifiers/internal/match"
	"github.com/openrai/raiserver/classifiers/internal/normalize"
	"github.com/openrai/raiserver/classifiers/vectors"
)

//go:embed data/terms.tsv data/classes.txt data/rules.txt data/masked.txt
var dataFS embed.FS

// Option configures New. Options are applied in order and validated by New.
type Option interface{ apply(*config) error }

type optionFunc func(*config) error

func (f optionFunc) apply(c *config) error { return f(c) }

type config struct {
	block   []term
	cats    catSet
	catsSet bool
	dict    Dictionary
	dictSet bool
}

// WithBlocklist adds the entries of a custom blocklist (format: one entry
// per line, "term category severity" separated by spaces or tabs, the term
// may hold spaces; lines starting with '#' are comments). Errors name the
// line, never the term.
func WithBlocklist(r io.Reader) Option {
	return optionFunc(func(c *config) error {
		t, err := parseBlocklist("blocklist", r)
		if err != nil {
			return err
		}
		c.block = append(c.block, t...)
		return nil
	})
}

// WithBlocklistFile is WithBlocklist on the named file.
func WithBlocklistFile(path string) Option {
	return optionFunc(func(c *config) error {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("%w: blocklist: %w", ErrOption, err)
		}
		defer f.Close()
		t, err := parseBlocklist(path, f)
		if err != nil {
			return err
		}
		c.block = append(c.block, t...)
		return nil
	})
}

// WithCategories enables only the given categories (default: all four).
func WithCategories(cats ...classifiers.Category) Option {
	return optionFunc(func(c *config) error {
		if len(cats) == 0 {
			return fmt.Errorf("%w: WithCategories needs at least one category", ErrOption)
		}
		c.cats, c.catsSet = 0, true
		for _, k := range cats {
			if k >= classifiers.NumCategories {
				return fmt.Errorf("%w: category %d", ErrOption, k)
			}
			c.cats |= 1 << k
		}
		return nil
	})
}

// Classifier is the rule classifier: lexicon terms, phrase rules and context
// rules over normalized text. It is immutable after New and safe for
// concurrent use; Classify allocates nothing in steady state.
type Classifier struct {
	norm  *normalize.Normalizer
	m     *match.Matcher // trigger words: can lead to a finding
	cm    *match.Matcher // context words: only scanned near a trigger
	pats  []patRec       // every pattern, before the split
	tpats []patRec       // per pattern of m
	cpats []patRec       // per pattern of cm
	infos []info         // per distinct normalized key
	terms []term         // lexicon and blocklist entries
	rules []rule         // all rules
	cats  catSet
	reach int // the most sentences a context modifier reaches either side
	// compounds make an event of a class from two adjacent events.
	compounds []compound
	// compoundTrigger: a compound's key can lead to a finding, which
	// mayFind does not follow.
	compoundTrigger bool
	classNames      []string
	// maskWords: the words Unmask reads masked words back as.
	maskWords *maskWords
	// spell and dict: the index Respell reads misspelled words back
	// with, and the words it leaves as written; nil with
	// WithDictionary(nil).
	spell *spellWords
	dict  Dictionary
	pool  sync.Pool // *scratch
}

type compound struct {
	a, b int   // classes of the first and second event
	info int32 // info of the compound event
}

// patRec ties a matcher pattern to what it means.
type patRec struct {
	info    int32
	n       int32  // the pattern's length: the matcher's, in this cache line
	stretch uint64 // bit j: normalized byte j must come from a stretched run
	kind    uint8  // what mayFind asks of the key: keyTerm | keyIdiom | keyAnchor
}

// patRec.kind bits.
const (
	keyTerm   = 1 << iota // the key has lexicon terms
	keyIdiom              // info.idiom
	keyAnchor             // finding or hold rules are anchored on the key's classes
)

// info is a distinct normalized key: its classes and lexicon terms.
type info struct {
	m      mask
	terms  []int32
	words  int32      // tokens the key spans
	prefix bool       // key may continue inside the last word
	rules  [3][]int32 // rules anchored on the key's classes, per action
	compA  uint64     // bit k: the key is in class A of compound k (all bits past 64)
	// trigger: the key can lead to a finding (it is a term, anchors a
	// finding rule or a hold rule, or makes a compound that does). A text
	// without any trigger has no findings and skips the rule engine.
	trigger bool
	// hold: a hold rule (a suppression that reports) is anchored on the key.
	hold bool
	// idiom: a rule of one slot suppresses the key wherever it is found,
	// and with it every word inside it (see mayFind).
	idiom bool
}

var (
	defaultOnce sync.Once
	defaultC    *Classifier
	defaultErr  error
)

// Default returns the classifier built from the embedded lexicon, built
// once and shared.
func Default() (*Classifier, error) {
	defaultOnce.Do(func() { defaultC, defaultErr = New() })
	return defaultC, defaultErr
}

// New builds a classifier from the embedded lexicon and rules plus the
// options. Its Dictionary is the word vectors' vocabulary
// (classifiers/vectors.Default, loaded once and shared with the model)
// unless WithDictionary says otherwise.
func New(opts ...Option) (*Classifier, error) {
	cfg := config{cats: 1<<classifiers.NumCategories - 1}
	for _, o := range opts {
		if o == nil {
			return nil, fmt.Errorf("%w: nil option", ErrOption)
		}
		if err := o.apply(&cfg); err != nil {
			return nil, err
		}
	}
	if !cfg.dictSet {
		tab, err := vectors.Default()
		if err != nil {
			return nil, err
		}
		cfg.dict = tab
	}
	termsData, _ := dataFS.ReadFile("data/terms.tsv")
	classData, _ := dataFS.ReadFile("data/classes.txt")
	ruleData, _ := dataFS.ReadFile("data/rules.txt")
	terms, err := parseTerms("terms.tsv", bytes.NewReader(termsData), "lex")
	if err != nil {
		return nil, err
	}
	terms = append(terms, cfg.block...)
	classes, err := parseClasses("classes.txt", bytes.NewReader(classData))
	if err != nil {
		return nil, err
	}
	maskedData, _ := dataFS.ReadFile("data/masked.txt")
	mw, err := newMaskWords(terms, maskedData, classWords(classes, maskClasses...))
	if err != nil {
		return nil, err
	}
	c := &Classifier{norm: normalize.New(), terms: terms, cats: cfg.cats, maskWords: mw}
	if cfg.dict != nil {
		c.spell, c.dict = newSpellWords(mw.all()), cfg.dict
	}
	b := builder{c: c, classIdx: map[string]int{}, keys: map[string]int32{}}
	for _, cd := range classes {
		if _, err := b.class(cd.name); err != nil {
			return nil, err
		}
	}
	for _, cd := range classes {
		k, _ := b.class(cd.name)
		for _, w := range cd.words {
			b.addWord(w, k, -1)
		}
	}
	// Products ("= A B") are compound events built at match time: an event
	// of class A directly followed by one of class B makes one of the class.
	for _, cd := range classes {
		k, _ := b.class(cd.name)
		for _, x := range cd.cross {
			a, ok1 := b.classIdx[x[0]]
			bb, ok2 := b.classIdx[x[1]]
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("%w: classes.txt: product in %s", ErrClass, cd.name)
			}
			in := info{}
			in.m.set(k)
			c.infos = append(c.infos, in)
			c.compounds = append(c.compounds, compound{a: a, b: bb, info: int32(len(c.infos) - 1)})
		}
	}
	// Sexual terms join the classes the minor rules look for, self-harm
	// terms SH_TERM, slurs SLUR_TERM.
	strongSex, weakSex := b.classIdx["SEX_STRONG"], b.classIdx["SEX_WEAK"]
	shTerm, _ := b.class("SH_TERM")
	slurTerm, _ := b.class("SLUR_TERM")
	for i, t := range terms {
		b.addWord(t.text, -1, int32(i))
		if t.cat == classifiers.SelfHarm {
			b.addWord(t.text, shTerm, -1)
		}
		if t.slur {
			b.addWord(t.text, slurTerm, -1)
		}
		if t.cat == classifiers.Sexual {
			if t.sev >= 2 {
				b.addWord(t.text, strongSex, -1)
			} else {
				b.addWord(t.text, weakSex, -1)
			}
		}
		for _, cn := range t.class {
			k, ok := b.classIdx[cn]
			if !ok {
				return nil, fmt.Errorf("%w: term %s joins class %s", ErrClass, t.id, cn)
			}
			b.addWord(t.text, k, -1)
		}
	}
	rules, err := parseRules("rules.txt", bytes.NewReader(ruleData), b.ruleClass)
	if err != nil {
		return nil, err
	}
	c.rules = rules
	for _, ru := range rules {
		if ru.act == actModify {
			c.reach = max(c.reach, ru.scope)
		}
	}
	c.classNames = make([]string, b.nclass)
	for name, k := range b.classIdx {
		c.classNames[k] = name
	}
	if b.nclass > maxClasses {
		return nil, fmt.Errorf("%w: more than %d classes", ErrClass, maxClasses)
	}
	// Each key gets the rules anchored on any of its classes, per action.
	for i := range c.infos {
		in := &c.infos[i]
		for act := range in.rules {
			for ri, ru := range rules {
				if ru.act == act && in.m.meets(&ru.slots[ru.anchor].m) {
					in.rules[act] = append(in.rules[act], int32(ri))
				}
			}
		}
	}
	for i := range c.infos {
		in := &c.infos[i]
		in.trigger = len(in.terms) > 0 || len(in.rules[actFind]) > 0
		for _, ri := range in.rules[actSuppress] {
			if sl := rules[ri].slots; len(sl) == 1 && sl[0].target {
				in.idiom = true
			}
			if rules[ri].hold {
				in.hold, in.trigger = true, true
			}
		}
	}
	for _, cp := range c.compounds {
		if !c.infos[cp.info].trigger {
			continue
		}
		c.compoundTrigger = true
		for i := range c.infos {
			if in := &c.infos[i]; in.m.has(cp.a) || in.m.has(cp.b) {
				in.trigger = true
			}
		}
	}
	for i := range c.infos {
		in := &c.infos[i]
		for k, cp := range c.compounds {
			if in.m.has(cp.a) {
				if k >= 64 {
					in.compA = ^uint64(0)
					break
				}
				in.compA |= 1 << k
			}
		}
	}
	for i := range c.pats {
		pr := &c.pats[i]
		in := &c.infos[pr.info]
		if len(in.terms) > 0 {
			pr.kind |= keyTerm
		}
		if in.idiom {
			pr.kind |= keyIdiom
		}
		if len(in.rules[actFind]) > 0 || in.hold {
			pr.kind |= keyAnchor
		}
	}
	// Two automata: the trigger words scan every text; the context words
	// only the sentences around a trigger.
	var tp, cp []match.Pattern
	for i, p := range b.pats {
		if c.infos[c.pats[i].info].trigger {
			tp = append(tp, p)
			c.tpats = append(c.tpats, c.pats[i])
		} else {
			cp = append(cp, p)
			c.cpats = append(c.cpats, c.pats[i])
		}
	}
	if c.m, err = match.Compile(tp, normalize.IsWordByte); err != nil {
		return nil, err
	}
	if c.cm, err = match.Compile(cp, normalize.IsWordByte); err != nil {
		return nil, err
	}
	c.pool.New = func() any { return newScratch() }
	return c, nil
}

type builder struct {
	c        *Classifier
	classIdx map[string]int
	nclass   int
	keys     map[string]int32 // normalized key (+"*" when prefix) → info
	pats     []match.Pattern
	normBuf  []byte
	offBuf   []int32
}

func (b *builder) class(name string) (int, error) {
	if k, ok := b.classIdx[name]; ok {
		return k, nil
	}
	if b.nclass >= maxClasses {
		return 0, fmt.Errorf("%w: more than %d classes", ErrClass, maxClasses)
	}
	b.classIdx[name] = b.nclass
	b.nclass++
	return b.nclass - 1, nil
}

// ruleClass resolves a class name used in a rule; a lower-case word is a
// literal and gets a class of its own. The error is ErrClass: an unknown
// class, or a literal that no longer fits the class table.
func (b *builder) ruleClass(name string) (int, error) {
	if k, ok := b.classIdx[name]; ok {
		return k, nil
	}
	if name == "" || strings.ToLower(name) != name {
		return 0, fmt.Errorf("%w: class %q", ErrClass, name)
	}
	k, err := b.class("=" + name)
	if err != nil {
		return 0, fmt.Errorf("%w (literal %q)", err, name)
	}
	b.addWord(name, k, -1)
	return k, nil
}

// addWord registers a word or phrase: as a member of class k (k >= 0) or as
// lexicon term t (t >= 0). A leading '*' drops the left word boundary, a
// trailing '*' the right one.
func (b *builder) addWord(w string, k int, t int32) {
	left, right := true, true
	if strings.HasPrefix(w, "*") {
		left, w = false, w[1:]
	}
	if strings.HasSuffix(w, "*") {
		right, w = false, w[:len(w)-1]
	}
	b.normBuf, b.offBuf = b.c.norm.Append(b.normBuf[:0], b.offBuf[:0], []byte(w))
	key := bytes.TrimSpace(b.normBuf)
	if len(key) == 0 {
		return
	}
	skey := string(key)
	if !right {
		skey += "*"
	}
	if !left {
		skey = "*" + skey
	}
	id, ok := b.keys[skey]
	if !ok {
		id = int32(len(b.c.infos))
		b.keys[skey] = id
		words := int32(0)
		for i := range key {
			if normalize.IsWordByte(key[i]) && (i == 0 || !normalize.IsWordByte(key[i-1])) {
				words++
			}
		}
		b.c.infos = append(b.c.infos, info{words: words, prefix: !right})
		// Positions that came from stretched runs in the term itself
		// ("xxx") must be stretched in the text too.
		var must uint64
		off := b.offBuf
		lead := len(b.normBuf) - len(bytes.TrimLeft(b.normBuf, " \n"))
		for j := range key {
			if j < 64 && off[lead+j+1]-off[lead+j] >= 3 {
				must |= 1 << j
			}
		}
		b.variants(key, must, id, left, right)
	}
	in := &b.c.infos[id]
	if k >= 0 {
		in.m.set(k)
	}
	if t >= 0 {
		in.terms = append(in.terms, t)
	}
}

// variants adds the matcher patterns for key: as written, with each doubled
// letter also as a single letter that must come from a stretched run
// ("kill" also matches "killll", normalized "kil"). The leet '1' is handled
// at match time (the text is scanned with it read as i and as l).
func (b *builder) variants(key []byte, must uint64, id int32, left, right bool) {
	type v struct {
		s       []byte
		stretch uint64
	}
	var runs []int // doubled letters (not tripled), at most three
	for j := 0; j+1 < len(key) && len(runs) < 3; j++ {
		c := key[j]
		if c >= 'a' && c <= 'z' && key[j+1] == c && (j == 0 || key[j-1] != c) && (j+2 == len(key) || key[j+2] != c) {
			runs = append(runs, j)
		}
	}
	var vs []v
	for sub := 0; sub < 1<<len(runs); sub++ {
		var x v
		for j := 0; j < len(key); j++ {
			if j < 64 && must&(1<<j) != 0 && len(x.s) < 64 {
				x.stretch |= 1 << len(x.s)
			}
			cut := false
			for q, r := range runs {
				if r == j && sub&(1<<q) != 0 {
					cut = true
				}
			}
			x.s = append(x.s, key[j])
			if cut {
				if len(x.s) <= 64 {
					x.stretch |= 1 << (len(x.s) - 1)
				}
				j++
			}
		}
		vs = append(vs, x)
	}
	for _, x := range vs {
		b.pats = append(b.pats, match.Pattern{Bytes: x.s, LeftWord: left, RightWord: right})
		b.c.pats = append(b.c.pats, patRec{info: id, n: int32(len(x.s)), stretch: x.stretch})
	}
}

// NumPatterns reports how many matcher patterns the classifier compiled
// (lexicon terms, class words and their variants).
func (c *Classifier) NumPatterns() int { return len(c.pats) }

// NumStates reports the size of the two automata.
func (c *Classifier) NumStates() int { return c.m.NumStates() + c.cm.NumStates() }

// RuleIDs returns every rule and term id the classifier can report, for
// documentation and debugging.
func (c *Classifier) RuleIDs() []string {
	var out []string
	for _, t := range c.terms {
		out = append(out, t.id)
	}
	for _, r := range c.rules {
		if r.act == actFind {
			out = append(out, r.id)
		}
	}
	return out
}

// stretched reports whether normalized byte q came from a run of two or
// more source runes (a stretched letter collapsed by the normalizer).
func stretched(src []byte, offs []int32, q int) bool {
	s, e := int(offs[q]), int(offs[q+1])
	if e-s < 2 {
		return false
	}
	n := 0
	for i := s; i < e; {
		if src[i] < utf8.RuneSelf {
			i++
		} else {
			_, sz := utf8.DecodeRune(src[i:])
			i += sz
		}
		n++
	}
	return n >= 2
}

// everyWord returns a new scratch with the events of every trigger and
// context word of text, context words in the whole text too (no
// shortcut), sorted by start.
func (c *Classifier) everyWord(text []byte) *scratch {
	s := newScratch()
	c.normalize(s, text)
	s.readings()
	s.matches = s.scanAll(c.m, s.matches[:0])
	s.trig = append(s.trig[:0], s.matches...)
	for i := range s.trig {
		s.trig[i].Pattern = -1 - s.trig[i].Pattern
	}
	s.trig = s.scanAll(c.cm, s.trig)
	c.buildEvents(s, text)
	return s
}

// DebugClasses lists, for a text, the class names and term ids of the words
// the matcher found, in order, without any of the text: a tool for tracing
// why a rule did or did not fire.
func (c *Classifier) DebugClasses(text []byte) string {
	s := c.everyWord(text)
	var b strings.Builder
	for _, ev := range s.events {
		in := &c.infos[ev.info]
		b.WriteString("[")
		first := true
		for k, name := range c.classNames {
			if in.m.has(k) && !strings.HasPrefix(name, "=") {
				if !first {
					b.WriteString("|")
				}
				b.WriteString(name)
				first = false
			}
		}
		for _, ti := range in.terms {
			b.WriteString(" " + c.terms[ti].id)
		}
		fmt.Fprintf(&b, " t%d s%d] ", ev.ts, ev.sent)
	}
	return b.String()
}
