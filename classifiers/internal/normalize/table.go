package normalize

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The rune table maps a non-ASCII rune to what the normalizer emits for it.
// An entry is one of:
//
//	entKeep (0)   copy the rune's UTF-8 bytes unchanged
//	entDrop (1)   emit nothing (invisible, format and combining diacritics)
//	off<<8 | n    emit pool[off:off+n] (n in 1..255)
//
// The table is computed once, the first time New is called, from
// golang.org/x/text/unicode/norm (NFKC/NFKD), unicode (case) and the
// confusable lists below. It is immutable afterwards.
const (
	entKeep uint32 = 0
	entDrop uint32 = 1
)

type runeTable struct {
	bmp  [256]*[256]uint32 // nil block: every entry is entKeep
	math [0x400]uint32     // U+1D400–U+1D7FF mathematical alphanumerics
	encl [0x100]uint32     // U+1F100–U+1F1FF enclosed alphanumerics
	tags [0x200]uint32     // U+E0000–U+E01FF tags and variation selectors
	pool string
}

var (
	tableOnce sync.Once
	table     *runeTable
)

func getTable() *runeTable {
	tableOnce.Do(func() { table = buildTable() })
	return table
}

func (t *runeTable) lookup(r rune) uint32 {
	if r < 0x10000 {
		if b := t.bmp[r>>8]; b != nil {
			return b[r&0xff]
		}
		return entKeep
	}
	switch {
	case r >= 0x1D400 && r <= 0x1D7FF:
		return t.math[r-0x1D400]
	case r >= 0x1F100 && r <= 0x1F1FF:
		return t.encl[r-0x1F100]
	case r >= 0xE0000 && r <= 0xE01FF:
		return t.tags[r-0xE0000]
	}
	return entKeep
}

// isInvisible reports whether r is a zero-width, bidi control, format or
// filler character that renders as nothing and is dropped.
func isInvisible(r rune) bool {
	switch {
	case r == 0x00AD, r == 0x034F, r == 0x061C, r == 0x115F, r == 0x1160,
		r == 0x17B4, r == 0x17B5, r == 0x180E, r == 0x3164, r == 0xFEFF, r == 0xFFA0:
		return true
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E,
		r >= 0x2060 && r <= 0x2064, r >= 0x2066 && r <= 0x206F,
		r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF,
		r >= 0x180B && r <= 0x180D, r >= 0xFFF0 && r <= 0xFFF8:
		return true
	case r == 0xE0001 || r == 0xE007F:
		return true
	}
	return false
}

// isDiacritic reports whether r is a generic combining mark (the blocks
// used for accents, strike-through and "Zalgo" text). Script-specific marks
// (Devanagari vowel signs, Arabic harakat, …) are not generic and are kept.
func isDiacritic(r rune) bool {
	return r >= 0x0300 && r <= 0x036F || r >= 0x1AB0 && r <= 0x1AFF ||
		r >= 0x1DC0 && r <= 0x1DFF || r >= 0x20D0 && r <= 0x20FF ||
		r >= 0xFE20 && r <= 0xFE2F || r == 0x0488 || r == 0x0489
}

// confusableUpper maps upper-case look-alikes to Latin before lower-casing
// (Greek capital eta looks like H, its small form like n).
var confusableUpper = map[rune]string{
	// Greek
	'Α': "a", 'Β': "b", 'Ε': "e", 'Ζ': "z", 'Η': "h", 'Ι': "i", 'Κ': "k", 'Μ': "m",
	'Ν': "n", 'Ο': "o", 'Ρ': "p", 'Τ': "t", 'Υ': "y", 'Χ': "x",
	// Cyrillic
	'А': "a", 'В': "b", 'Е': "e", 'К': "k", 'М': "m", 'Н': "h", 'О': "o", 'Р': "p",
	'С': "c", 'Т': "t", 'У': "y", 'Х': "x", 'І': "i", 'Ј': "j", 'Ѕ': "s", 'Ӏ': "l",
	'Ԁ': "d", 'Ԛ': "q", 'Ԝ': "w", 'Ү': "y", 'Һ': "h",
}

// confusableLower maps lower-case look-alikes and other letter variants to
// Latin (after NFKC, diacritic removal and lower-casing).
var confusableLower = map[rune]string{
	// Cyrillic
	'а': "a", 'в': "b", 'е': "e", 'к': "k", 'м': "m", 'н': "h", 'о': "o", 'р': "p",
	'с': "c", 'т': "t", 'у': "y", 'х': "x", 'і': "i", 'ј': "j", 'ѕ': "s", 'ӏ': "l",
	'ԁ': "d", 'ԛ': "q", 'ԝ': "w", 'һ': "h", 'ь': "b", 'п': "n", 'г': "r", 'ү': "y",
	'ѵ': "v", 'ɡ': "g",
	// Greek
	'α': "a", 'β': "b", 'γ': "y", 'ε': "e", 'η': "n", 'ι': "i", 'κ': "k", 'μ': "u",
	'ν': "v", 'ο': "o", 'ρ': "p", 'ς': "s", 'τ': "t", 'υ': "u", 'χ': "x", 'ω': "w",
	'ϲ': "c", 'ϳ': "j",
	// Latin letters without a decomposition
	'ı': "i", 'ł': "l", 'ø': "o", 'đ': "d", 'ħ': "h", 'ŧ': "t", 'ƀ': "b", 'ß': "ss",
	'æ': "ae", 'œ': "oe", 'ɑ': "a", 'ɩ': "i", 'ɪ': "i", 'ʏ': "y", 'ɛ': "e", 'ɔ': "o",
	'ƒ': "f", 'ʋ': "u", 'ȷ': "j", 'ɐ': "a", 'ǝ': "e", 'ɹ': "r", 'ʇ': "t",
	// small capitals
	'ᴀ': "a", 'ʙ': "b", 'ᴄ': "c", 'ᴅ': "d", 'ᴇ': "e", 'ꜰ': "f", 'ɢ': "g", 'ʜ': "h",
	'ᴊ': "j", 'ᴋ': "k", 'ʟ': "l", 'ᴍ': "m", 'ɴ': "n", 'ᴏ': "o", 'ᴘ': "p", 'ʀ': "r",
	'ꜱ': "s", 'ᴛ': "t", 'ᴜ': "u", 'ᴠ': "v", 'ᴡ': "w", 'ᴢ': "z",
	// punctuation variants
	'‘': "'", '’': "'", 'ʼ': "'", '´': "'", '′': "'", '`': "'",
	'‐': "-", '‑': "-", '‒': "-", '–': "-", '—': "-", '―': "-", '−': "-",
	'\u2028': "\n", '\u2029': "\n", '\u0085': "\n", '\u2800': " ",
	'·': ".", '•': ".", '∙': ".", '⋅': ".",
}

func buildTable() *runeTable {
	t := new(runeTable)
	var pool strings.Builder
	index := map[string]uint32{}
	entry := func(s string) uint32 {
		if s == "" {
			return entDrop
		}
		if e, ok := index[s]; ok {
			return e
		}
		e := uint32(pool.Len())<<8 | uint32(len(s))
		pool.WriteString(s)
		index[s] = e
		return e
	}
	set := func(r rune, e uint32) {
		if e == entKeep {
			return
		}
		if r < 0x10000 {
			b := t.bmp[r>>8]
			if b == nil {
				b = new([256]uint32)
				t.bmp[r>>8] = b
			}
			b[r&0xff] = e
			return
		}
		switch {
		case r >= 0x1D400 && r <= 0x1D7FF:
			t.math[r-0x1D400] = e
		case r >= 0x1F100 && r <= 0x1F1FF:
			t.encl[r-0x1F100] = e
		case r >= 0xE0000 && r <= 0xE01FF:
			t.tags[r-0xE0000] = e
		}
	}
	consider := func(r rune) {
		s, keep := foldRune(r)
		if keep {
			return
		}
		set(r, entry(s))
	}
	for r := rune(0x80); r < 0x10000; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		consider(r)
	}
	for _, rg := range [][2]rune{{0x1D400, 0x1D7FF}, {0x1F100, 0x1F1FF}, {0xE0000, 0xE01FF}} {
		for r := rg[0]; r <= rg[1]; r++ {
			consider(r)
		}
	}
	t.pool = pool.String()
	return t
}

// foldRune computes what r normalizes to. keep reports that r is emitted
// unchanged.
func foldRune(r rune) (s string, keep bool) {
	switch {
	case isInvisible(r) || isDiacritic(r):
		return "", false
	case r >= 0xE0020 && r <= 0xE007E: // tag characters: hidden ASCII
		return strings.ToLower(string(r - 0xE0000)), false
	case r >= 0x1F150 && r <= 0x1F169: // negative circled capitals
		return string('a' + (r - 0x1F150)), false
	case r >= 0x1F170 && r <= 0x1F189: // negative squared capitals
		return string('a' + (r - 0x1F170)), false
	case r >= 0x1F1E6 && r <= 0x1F1FF: // regional indicators
		return string('a' + (r - 0x1F1E6)), false
	case r >= 0x249C && r <= 0x24B5: // parenthesized small letters
		return string('a' + (r - 0x249C)), false
	}
	if s, ok := confusableLower[r]; ok {
		return s, false
	}
	if s, ok := confusableUpper[r]; ok {
		return s, false
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	if norm.NFKC.Properties(buf[:n]).Decomposition() == nil &&
		norm.NFKD.Properties(buf[:n]).Decomposition() == nil &&
		unicode.ToLower(r) == r {
		return "", true
	}
	// NFKC, then strip generic diacritics from its NFKD form and recompose.
	c := norm.NFKC.String(string(r))
	var stripped strings.Builder
	for _, q := range norm.NFKD.String(c) {
		if !isDiacritic(q) && !isInvisible(q) {
			stripped.WriteRune(q)
		}
	}
	c = norm.NFKC.String(stripped.String())
	var out strings.Builder
	for _, q := range c {
		if s, ok := confusableUpper[q]; ok {
			out.WriteString(s)
			continue
		}
		q = unicode.ToLower(q)
		if s, ok := confusableLower[q]; ok {
			out.WriteString(s)
			continue
		}
		out.WriteRune(q)
	}
	s = out.String()
	if s == string(r) {
		return "", true
	}
	return s, false
}
