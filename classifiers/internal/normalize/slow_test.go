package normalize

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"
)

// appendSlow is the obvious version of Append: rune by rune through the
// tables, then the leetspeak and compaction passes over the whole output.
// The fast paths of Append (eight-byte blocks, the byte path, inline
// UTF-8 decoding, passes started late) must give the same bytes and
// offsets, and the same report of what was folded.
func appendSlow(t *runeTable, src []byte) ([]byte, []int32, Folds) {
	var folds Folds
	d := make([]byte, 0, len(src)*4+64)
	o := make([]int32, 0, len(src)*4+65)
	emit := func(c byte, i int) {
		d, o = append(d, c), append(o, int32(i))
	}
	ws := func(c byte, i int) {
		d, o = append(d, 0), append(o, 0)
		w := space(d, o, 0, len(d)-1, c, i)
		d, o = d[:w], o[:w]
	}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r < utf8.RuneSelf {
			c := byte(r)
			switch asciiClass[c] {
			case aCopy, aLeet:
				emit(c, i)
			case aUpper:
				emit(c+'a'-'A', i)
			case aSpace:
				ws(' ', i)
			case aNL:
				ws('\n', i)
			case aDrop:
				folds |= Controls
			}
			i++
			continue
		}
		if r == utf8.RuneError && size == 1 {
			folds |= Runes
			for _, c := range []byte("\uFFFD") {
				emit(c, i)
			}
			i++
			continue
		}
		switch e := t.lookup(r); e {
		case entKeep:
			for k := range size {
				emit(src[i+k], i)
			}
		case entDrop:
			folds |= Runes
		default:
			folds |= Runes
			for _, c := range []byte(t.pool[e>>8 : e>>8+e&0xff]) {
				switch {
				case c >= utf8.RuneSelf:
					emit(c, i)
				case asciiClass[c] == aSpace:
					ws(' ', i)
				case asciiClass[c] == aNL:
					ws('\n', i)
				case asciiClass[c] == aDrop:
				default:
					emit(c, i)
				}
			}
		}
		i += size
	}
	_, f := leet(d, 0, 0, len(d))
	folds |= f
	w, f := compact(d, o, 0, 0)
	folds |= f
	d, o = d[:w], o[:w]
	return d, append(o, int32(len(src))), folds
}

func checkSame(t *testing.T, n *Normalizer, src []byte) {
	t.Helper()
	wantD, wantO, wantF := appendSlow(n.t, src)
	gotD, gotO, gotF := n.AppendFolds(nil, nil, src)
	if !bytes.Equal(gotD, wantD) {
		t.Fatalf("output differs from the slow version (len %d): got %d bytes, want %d", len(src), len(gotD), len(wantD))
	}
	if !slices.Equal(gotO, wantO) {
		t.Fatalf("offsets differ from the slow version (len %d)", len(src))
	}
	if gotF != wantF {
		t.Fatalf("folds differ from the slow version (len %d): got %07b, want %07b", len(src), gotF, wantF)
	}
}

// TestDifferentialSlow compares Append with appendSlow on random text
// built from pieces that exercise every path: plain words, capitals,
// single letters and separators, stretched letters, leetspeak, digits,
// whitespace runs, controls and non-ASCII runes of every kind.
func TestDifferentialSlow(t *testing.T) {
	n := New()
	pieces := []string{"hello", "World", "the", "a", "I", "k", "i", "l", " ", " ", " ", "  ", "\n", "\t", ".", "-", ",",
		"_", "*", "~", "/", "+", "=", ":", "'", "?", "(", ")", "\"", "kill", "KILL", "diiiie", "ooo", "ss", "1", "0", "3",
		"4", "5", "7", "@", "$", "!", "|", "2024", "10am", "x\x00y", "\x7f", "ö", "é", "Привет", "γειά", "ｋｉｌｌ", "𝐛𝐨𝐥𝐝",
		"\u200b", "\u0336", "ﷺ", "¼", "\xff", "\xe2\x80", "日本", "👩\u200d👧", "\U000E0068", "ǅ", "ß", "Ｈ"}
	r := rand.New(rand.NewPCG(11, 12))
	var b []byte
	for round := range 20000 {
		b = b[:0]
		k := r.IntN(40)
		if round%10 == 0 {
			k = 200 + r.IntN(200)
		}
		for range k {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		checkSame(t, n, b)
	}
}

// TestDifferentialSlowPlain is TestDifferentialSlow on mostly plain ASCII
// chat, where the block paths do the work: words, letters standing alone,
// numbers, line breaks and punctuation, with now and then something for the
// later passes (a separated spelling, a run of three, leetspeak, a
// look-alike rune).
func TestDifferentialSlowPlain(t *testing.T) {
	n := New()
	common := []string{"hello", "the", "Process", "weekend", "a", "I", "e", "g", "2024", "10", "9", "mp3", "x",
		"don't", "well", "see", "Too", "you're", "vs", "ok"}
	seps := []string{" ", " ", " ", ", ", ". ", "\n", "-", ".", "! ", "? ", "'", "(", ")", ":", "/", "@", "$", "|"}
	rare := []string{"k.i.l.l", "k i l l", "diiie", "h3llo", "a$$", "\u043a", "  ", "\n\n", "\t", "!x", "1", "e.g.", "u.s.a"}
	r := rand.New(rand.NewPCG(13, 14))
	var b []byte
	for range 20000 {
		b = b[:0]
		for range 5 + r.IntN(60) {
			if r.IntN(25) == 0 {
				b = append(b, rare[r.IntN(len(rare))]...)
			} else {
				b = append(b, common[r.IntN(len(common))]...)
			}
			b = append(b, seps[r.IntN(len(seps))]...)
		}
		checkSame(t, n, b)
	}
}

// TestDifferentialSlowDense is TestDifferentialSlow on text that turns
// between stretches dense with bytes no block takes (a table of numbers,
// code, leetspeak, a URL), after which fold skips a block size for a while
// (denseStops), and plain prose long enough for the blocks of 64 again.
func TestDifferentialSlowDense(t *testing.T) {
	n := New()
	dense := []string{"| 2024-03-12 | 1,234.56 | 78% | #4471 |\n", "for i := 0; i < 10; i++ {\n\tx[i] = i*2\n}\n",
		"h3ll0 th3r3 h0w 4r3 y0u ", "https://example.com/a8f3/v2?id=20240312&x=1 ", "$$$ 100% !!! ", "10am 9pm 4th 2nd ",
		"k.i.l.l ", "0x7f3a, 0x00ff; ", "(1) (2) [3] {4} "}
	plain := []string{"Sure, here is a short summary of the meeting notes from this week ",
		"and a few ideas for the weekend trip with the family ", "Let me know if you want more detail on any part ",
		"The weather should be fine on Saturday morning "}
	r := rand.New(rand.NewPCG(15, 16))
	var b []byte
	for range 5000 {
		b = b[:0]
		for range 2 + r.IntN(12) {
			if r.IntN(2) == 0 {
				for range 1 + r.IntN(6) {
					b = append(b, dense[r.IntN(len(dense))]...)
				}
			} else {
				for range 1 + r.IntN(4) {
					b = append(b, plain[r.IntN(len(plain))]...)
				}
			}
		}
		checkSame(t, n, b)
	}
}

func FuzzDifferentialSlow(f *testing.F) {
	for _, s := range []string{"", "hello world", "k.i.l.l", "a b c d", "Hello  World. How are you? I am fine",
		"diiiie now", "h3ll0 w0rld", "Привет мир kill", "ｋｉｌｌ", "ok so k i l l you ok"} {
		f.Add([]byte(s))
	}
	n := New()
	f.Fuzz(func(t *testing.T, src []byte) { checkSame(t, n, src) })
}

func TestDecode(t *testing.T) {
	var b [4]byte
	for c0 := 0xC0; c0 < 0x100; c0++ {
		for c1 := 0; c1 < 0x100; c1 += 7 {
			for c2 := 0; c2 < 0x100; c2 += 13 {
				b = [4]byte{byte(c0), byte(c1), byte(c2), 'x'}
				for n := 1; n <= 4; n++ {
					r, s := decode(b[:n], 0)
					wr, ws := utf8.DecodeRune(b[:n])
					if r != wr || s != ws {
						t.Fatalf("decode(% x) = %U %d, want %U %d", b[:n], r, s, wr, ws)
					}
				}
			}
		}
	}
}

// TestChainCandidates compares Append with appendSlow on every text that
// starts a separated spelling ("k.i.") and goes on with three pieces from
// a small alphabet (the last from a smaller one): a third letter standing alone or one that starts a
// word, capitals, digits, leetspeak, whitespace, punctuation, controls,
// non-ASCII. Append skips the compaction pass when what follows the "k.i."
// cannot continue it (stopsChain); a wrong guess shows up here.
func TestChainCandidates(t *testing.T) {
	n := New()
	prefixes := []string{"", "x ", "So the plan for this week is simple and it is written down plainly: "}
	firsts := []string{"k", "K", "1"}
	seps := []string{".", " ", "-"}
	seconds := []string{"i", "1"}
	ends := []string{".", " ", ",", "  "}
	alpha := []string{"l", "L", "o", "1", "!", "2", " ", "\n", ".", ",", "\x00", "é", "$", "x"}
	lasts := []string{"l", " ", "."}
	var b []byte
	count := 0
	for _, p := range prefixes {
		for _, f := range firsts {
			for _, s1 := range seps {
				for _, s2 := range seconds {
					for _, e := range ends {
						for _, x := range alpha {
							for _, y := range alpha {
								for _, z := range lasts {
									b = append(b[:0], p...)
									b = append(b, f...)
									b = append(b, s1...)
									b = append(b, s2...)
									b = append(b, e...)
									b = append(b, x...)
									b = append(b, y...)
									b = append(b, z...)
									checkSame(t, n, b)
									count++
								}
							}
						}
					}
				}
			}
		}
	}
	if count == 0 {
		t.Fatal("no texts")
	}
}
