package lexicon

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/openrai/raiserver/classifiers"
)

// Sentinel errors; errors from New wrap one of them with a file name and
// line number, never with the text of a term.
var (
	ErrSyntax   = errors.New("lexicon: syntax error")
	ErrCategory = errors.New("lexicon: unknown category")
	ErrSeverity = errors.New("lexicon: invalid severity")
	ErrClass    = errors.New("lexicon: unknown class")
	ErrOption   = errors.New("lexicon: invalid option")
)

const maxClasses = 896

// mask is a set of class indices. meets and or are written out for its
// fourteen words; the array below fails to compile when maxClasses changes
// the word count, so they cannot silently ignore a word.
type mask [maxClasses / 64]uint64

var _ = [1]struct{}{}[len(mask{})-14]

func (m *mask) set(i int)      { m[i>>6] |= 1 << (i & 63) }
func (m *mask) has(i int) bool { return m[i>>6]&(1<<(i&63)) != 0 }
func (m *mask) meets(o *mask) bool {
	return m[0]&o[0]|m[1]&o[1]|m[2]&o[2]|m[3]&o[3]|m[4]&o[4]|m[5]&o[5]|m[6]&o[6]|m[7]&o[7]|m[8]&o[8]|m[9]&o[9]|m[10]&o[10]|m[11]&o[11]|m[12]&o[12]|m[13]&o[13] != 0
}
func (m *mask) or(o *mask) {
	m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7] = m[0]|o[0], m[1]|o[1], m[2]|o[2], m[3]|o[3], m[4]|o[4], m[5]|o[5], m[6]|o[6], m[7]|o[7]
	m[8], m[9], m[10], m[11], m[12], m[13] = m[8]|o[8], m[9]|o[9], m[10]|o[10], m[11]|o[11], m[12]|o[12], m[13]|o[13]
}

// catSet is a set of categories.
type catSet uint8

func (c catSet) has(k classifiers.Category) bool { return c&(1<<k) != 0 }

// firmness of a finding: which context modifiers may lower it.
const (
	firmTerm   = 0 // lone terms and weak rules: every modifier applies
	firmStrong = 1 // intent, threat, method: only fiction/game modifiers apply
	firmFirm   = 2 // weapons of mass harm, minors: no modifier applies
)

// term is one lexicon or blocklist entry.
type term struct {
	id    string
	text  string // as written; never reported
	cat   classifiers.Category
	sev   uint8
	slur  bool // lowered by counter-speech context
	firm  uint8
	class []string // classes the term also joins
}

// lines reads the lines of a data file that are neither blank nor '#'
// comments, numbered from 1, with a trailing "\r" cut.
type lines struct {
	sc   *bufio.Scanner
	name string
	ln   int    // number of the current line
	text string // the current line
}

func newLines(name string, r io.Reader) *lines {
	return &lines{sc: bufio.NewScanner(r), name: name}
}

// next moves to the next line with content and reports false at the end.
func (l *lines) next() bool {
	for l.sc.Scan() {
		l.ln++
		l.text = strings.TrimRight(l.sc.Text(), "\r")
		if t := strings.TrimSpace(l.text); t != "" && t[0] != '#' {
			return true
		}
	}
	return false
}

// err is the reading error that ended next, if any, naming the file.
func (l *lines) err() error {
	if err := l.sc.Err(); err != nil {
		return fmt.Errorf("lexicon: reading %s: %w", l.name, err)
	}
	return nil
}

// parseTerms reads the lexicon TSV format:
//
//	term <TAB> category <TAB> severity [<TAB> flags]
//
// flags is a comma-separated list of: slur, strong, firm, cls=NAME.
func parseTerms(name string, r io.Reader, prefix string) ([]term, error) {
	var out []term
	first := map[string]int{} // term and category → line
	in := newLines(name, r)
	for in.next() {
		line, ln := in.text, in.ln
		f := strings.Split(line, "\t")
		if len(f) < 3 || len(f) > 4 {
			return nil, fmt.Errorf("%w: %s:%d: want 3 or 4 tab-separated fields, have %d", ErrSyntax, name, ln, len(f))
		}
		if at, ok := first[f[0]+"\t"+f[1]]; ok {
			return nil, fmt.Errorf("%w: %s:%d: the term is listed for its category at line %d already", ErrSyntax, name, ln, at)
		}
		first[f[0]+"\t"+f[1]] = ln
		t, err := newTerm(name, ln, f[0], f[1], f[2], prefix)
		if err != nil {
			return nil, err
		}
		if len(f) == 4 {
			for _, fl := range strings.Split(f[3], ",") {
				fl = strings.TrimSpace(fl)
				switch {
				case fl == "" || fl == "-":
				case fl == "slur":
					t.slur = true
				case fl == "strong":
					t.firm = firmStrong
				case fl == "firm":
					t.firm = firmFirm
				case strings.HasPrefix(fl, "cls="):
					t.class = append(t.class, fl[4:])
				default:
					return nil, fmt.Errorf("%w: %s:%d: unknown flag", ErrSyntax, name, ln)
				}
			}
		}
		out = append(out, t)
	}
	if err := in.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// parseBlocklist reads the custom blocklist format: one entry per line,
// "term category severity" separated by whitespace (the term may hold
// spaces: the last two fields are category and severity); '#' starts a
// comment line.
func parseBlocklist(name string, r io.Reader) ([]term, error) {
	var out []term
	in := newLines(name, r)
	for in.next() {
		line, ln := strings.TrimSpace(in.text), in.ln
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("%w: %s:%d: want \"term category severity\"", ErrSyntax, name, ln)
		}
		t, err := newTerm(name, ln, strings.Join(f[:len(f)-2], " "), f[len(f)-2], f[len(f)-1], "block")
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if err := in.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func newTerm(name string, ln int, text, cat, sev, prefix string) (term, error) {
	text = strings.TrimSpace(text)
	if text == "" || text == "*" || len(text) > 200 {
		return term{}, fmt.Errorf("%w: %s:%d: empty or overlong term", ErrSyntax, name, ln)
	}
	c, ok := classifiers.ParseCategory(strings.TrimSpace(cat))
	if !ok {
		return term{}, fmt.Errorf("%w: %s:%d", ErrCategory, name, ln)
	}
	s, err := strconv.Atoi(strings.TrimSpace(sev))
	if err != nil || s < 1 || s > classifiers.MaxSeverity {
		return term{}, fmt.Errorf("%w: %s:%d: want 1 to %d", ErrSeverity, name, ln, classifiers.MaxSeverity)
	}
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(text)))
	id := fmt.Sprintf("%s:%s:%08x", prefix, strings.ToLower(c.String()), h.Sum32())
	return term{id: id, text: text, cat: c, sev: uint8(s)}, nil
}

// classDef is a named set of words and phrases used by phrase rules.
type classDef struct {
	name  string
	words []string
	cross [][2]string // products of two other classes
}

// include appends to cd the members and products of the classes named in
// names, each defined earlier in defs ("+ A, B": one list, one source).
func (cd *classDef) include(defs []classDef, names string, file string, ln int) error {
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		i := slices.IndexFunc(defs, func(d classDef) bool { return d.name == n })
		if n == "" || i < 0 {
			return fmt.Errorf("%w: %s:%d: \"+\" names no class defined before this one", ErrSyntax, file, ln)
		}
		cd.words = append(cd.words, defs[i].words...)
		cd.cross = append(cd.cross, defs[i].cross...)
	}
	return nil
}

// parseClasses reads the classes format:
//
//	[NAME]            starts a class
//	word, two words   members, comma-separated, any number of lines
//	= A B             adds "a b" for every a in class A and b in class B
func parseClasses(name string, r io.Reader) ([]classDef, error) {
	var out []classDef
	in := newLines(name, r)
	for in.next() {
		line, ln := strings.TrimSpace(in.text), in.ln
		if line[0] == '[' {
			if line[len(line)-1] != ']' || len(line) < 3 {
				return nil, fmt.Errorf("%w: %s:%d: bad class header", ErrSyntax, name, ln)
			}
			out = append(out, classDef{name: line[1 : len(line)-1]})
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%w: %s:%d: member before any [CLASS]", ErrSyntax, name, ln)
		}
		cd := &out[len(out)-1]
		if line[0] == '+' {
			if err := cd.include(out[:len(out)-1], line[1:], name, ln); err != nil {
				return nil, err
			}
			continue
		}
		if line[0] == '=' {
			f := strings.Fields(line[1:])
			if len(f) != 2 {
				return nil, fmt.Errorf("%w: %s:%d: want \"= A B\"", ErrSyntax, name, ln)
			}
			cd.cross = append(cd.cross, [2]string{f[0], f[1]})
			continue
		}
		if strings.Contains(line, " #") {
			return nil, fmt.Errorf("%w: %s:%d: a comment after members (comments take their own line)", ErrSyntax, name, ln)
		}
		for _, w := range strings.Split(line, ",") {
			if w = strings.TrimSpace(w); w != "" {
				cd.words = append(cd.words, w)
			}
		}
	}
	if err := in.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Target flags of a finding rule: whom the harm word it is anchored on is
// aimed at, read from the pattern (see yield).
const (
	tgtSelf  = 1 << iota // the speaker ("… myself", "I want to die")
	tgtOther             // another person, a group, an animal or a place
)

// rule actions.
const (
	actFind     = iota // report a finding
	actSuppress        // neutralize the '!' slot's words
	actModify          // lower severities around the match
)

type slot struct {
	m      mask
	gap    int // tokens allowed between the previous slot and this one
	target bool
}

type rule struct {
	name   string
	id     string
	cats   catSet
	act    int
	sev    int // severity for actFind, delta (negative) for actModify
	firm   uint8
	reach  uint8 // actModify: the highest firmness it lowers
	scope  int   // actModify: sentences either side it covers
	tgt    uint8 // actFind: whom the harm is aimed at (tgtSelf, tgtOther)
	hold   bool  // actSuppress: also report a LOW hold finding in cats
	slots  []slot
	anchor int
}

// parseRules reads the rules format, tab-separated:
//
//	name  categories  action  flags  pattern
//
// categories is a comma list or "-"; action is a severity 1..5, "suppress",
// "hold" (a suppression that reports a LOW hold finding; without a "!"
// slot it only reports), or a negative delta for a context modifier; flags: strong, firm, reach1,
// scopeN, self, other or "-". The pattern is a sequence of slots: a slot is CLASS or
// CLASS|CLASS or a lower-case literal word, "~N" between slots allows up to N
// tokens in between, "^" marks the anchor slot, "!" the suppressed slot.
func parseRules(name string, r io.Reader, classIndex func(string) (int, error)) ([]rule, error) {
	var out []rule
	in := newLines(name, r)
	for in.next() {
		line, ln := in.text, in.ln
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("%w: %s:%d: want 5 tab-separated fields", ErrSyntax, name, ln)
		}
		ru := rule{name: f[0], id: "phrase:" + f[0], anchor: -1}
		if f[1] != "-" {
			for _, c := range strings.Split(f[1], ",") {
				k, ok := classifiers.ParseCategory(c)
				if !ok {
					return nil, fmt.Errorf("%w: %s:%d", ErrCategory, name, ln)
				}
				ru.cats |= 1 << k
			}
		}
		switch a := f[2]; {
		case a == "suppress":
			ru.act = actSuppress
		case a == "hold":
			ru.act, ru.hold, ru.sev = actSuppress, true, 1
			ru.id = classifiers.HoldPrefix + f[0]
		default:
			n, err := strconv.Atoi(a)
			switch {
			case err != nil || n == 0 || n > classifiers.MaxSeverity || n < -classifiers.MaxSeverity:
				return nil, fmt.Errorf("%w: %s:%d", ErrSeverity, name, ln)
			case n < 0:
				ru.act, ru.sev, ru.scope = actModify, n, 1
			default:
				ru.act, ru.sev = actFind, n
			}
		}
		if f[3] != "-" {
			for _, fl := range strings.Split(f[3], ",") {
				switch {
				case fl == "strong":
					ru.firm = firmStrong
				case fl == "firm":
					ru.firm = firmFirm
				case fl == "reach1":
					ru.reach = firmStrong
				case fl == "self":
					ru.tgt |= tgtSelf
				case fl == "other":
					ru.tgt |= tgtOther
				case strings.HasPrefix(fl, "scope"):
					n, err := strconv.Atoi(fl[5:])
					if err != nil || n < 0 {
						return nil, fmt.Errorf("%w: %s:%d: bad scope", ErrSyntax, name, ln)
					}
					ru.scope = n
				default:
					return nil, fmt.Errorf("%w: %s:%d: unknown flag", ErrSyntax, name, ln)
				}
			}
		}
		gap := 0
		for _, tok := range strings.Fields(f[4]) {
			if tok[0] == '~' {
				n, err := strconv.Atoi(tok[1:])
				if err != nil || n < 0 || n > 16 {
					return nil, fmt.Errorf("%w: %s:%d: bad gap", ErrSyntax, name, ln)
				}
				gap = n
				continue
			}
			var s slot
			s.gap = gap
			gap = 0
			for len(tok) > 0 && (tok[0] == '^' || tok[0] == '!') {
				if tok[0] == '^' {
					ru.anchor = len(ru.slots)
				} else {
					s.target = true
				}
				tok = tok[1:]
			}
			for _, cn := range strings.Split(tok, "|") {
				k, err := classIndex(cn)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %w", name, ln, err)
				}
				s.m.set(k)
			}
			ru.slots = append(ru.slots, s)
		}
		if len(ru.slots) == 0 {
			return nil, fmt.Errorf("%w: %s:%d: empty pattern", ErrSyntax, name, ln)
		}
		if ru.anchor < 0 {
			ru.anchor = 0
		}
		if ru.act == actSuppress {
			n := 0
			for _, s := range ru.slots {
				if s.target {
					n++
				}
			}
			if n == 0 && !ru.hold {
				return nil, fmt.Errorf("%w: %s:%d: suppress rule without a '!' slot", ErrSyntax, name, ln)
			}
			if ru.hold != (ru.cats != 0) {
				return nil, fmt.Errorf("%w: %s:%d: a hold rule names its categories, a suppress rule none", ErrSyntax, name, ln)
			}
		}
		if ru.tgt != 0 && (ru.act != actFind || ru.tgt == tgtSelf|tgtOther) {
			return nil, fmt.Errorf("%w: %s:%d: self or other on a rule that is not a finding rule, or both", ErrSyntax, name, ln)
		}
		if ru.act != actSuppress && ru.cats == 0 {
			return nil, fmt.Errorf("%w: %s:%d: rule without categories", ErrCategory, name, ln)
		}
		out = append(out, ru)
	}
	if err := in.err(); err != nil {
		return nil, err
	}
	return out, nil
}
