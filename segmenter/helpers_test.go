package segmenter_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openrai/raiserver/segmenter"
)

// Failure messages in this package report offsets and lengths only, never
// the text under test.

// feed drives seg exactly the way the analyzer does: it keeps a buffer of the
// bytes not yet cut into segments, appends each chunk, calls Next(buf, false)
// until it returns 0, drops each segment from the front, and at the end calls
// Next(buf, true) until the buffer is empty. It returns the segment spans in
// offsets of the whole text.
func feed(t testing.TB, seg *segmenter.Segmenter, chunks [][]byte) [][2]int {
	t.Helper()
	var (
		buf []byte
		out [][2]int
		off int
	)
	take := func(n int, atEOF bool) bool {
		if n < 0 || n > len(buf) || n > seg.MaxBytes() || (atEOF && n == 0) {
			t.Fatalf("Next(len %d, atEOF %v) = %d at offset %d (max %d)", len(buf), atEOF, n, off, seg.MaxBytes())
		}
		if n == 0 {
			return false
		}
		out = append(out, [2]int{off, off + n})
		off += n
		buf = append(buf[:0], buf[n:]...)
		return true
	}
	for _, c := range chunks {
		buf = append(buf, c...)
		for len(buf) > 0 && take(seg.Next(buf, false), false) {
		}
	}
	for len(buf) > 0 {
		take(seg.Next(buf, true), true)
	}
	return out
}

// chunkWhole, chunkBytes and chunkRandom split text the three ways the
// invariance tests feed it.
func chunkWhole(text []byte) [][]byte {
	if len(text) == 0 {
		return nil
	}
	return [][]byte{text}
}

func chunkBytes(text []byte) [][]byte {
	out := make([][]byte, len(text))
	for i := range text {
		out[i] = text[i : i+1]
	}
	return out
}

// chunkRandom splits text into chunks of random sizes; some seeds favour
// tiny chunks, others chunks larger than the cap.
func chunkRandom(text []byte, seed uint64) [][]byte {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	most := 1 + rng.IntN(8)
	if rng.IntN(3) == 0 {
		most = 1 + rng.IntN(2100)
	}
	var out [][]byte
	for len(text) > 0 {
		n := min(1+rng.IntN(most), len(text))
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

// runeStarts marks the offsets that lie between two runes (or at either end)
// when utf8.DecodeRune reads text from its start.
func runeStarts(text []byte) []bool {
	ok := make([]bool, len(text)+1)
	for i := 0; i < len(text); {
		ok[i] = true
		_, size := utf8.DecodeRune(text[i:])
		i += size
	}
	ok[len(text)] = true
	return ok
}

// checkInvariants checks that spans tile text, are non-empty, at most
// maxBytes long, and cut only between runes.
func checkInvariants(t testing.TB, text []byte, maxBytes int, spans [][2]int) {
	t.Helper()
	starts := runeStarts(text)
	pos := 0
	for i, sp := range spans {
		switch {
		case sp[0] != pos:
			t.Fatalf("segment %d starts at %d, want %d", i, sp[0], pos)
		case sp[1] <= sp[0]:
			t.Fatalf("segment %d is empty or reversed: %v", i, sp)
		case sp[1]-sp[0] > maxBytes:
			t.Fatalf("segment %d %v is %d bytes, over the cap %d", i, sp, sp[1]-sp[0], maxBytes)
		case sp[1] > len(text):
			t.Fatalf("segment %d %v ends past the text (len %d)", i, sp, len(text))
		case !starts[sp[1]]:
			t.Fatalf("segment %d %v ends inside a UTF-8 sequence", i, sp)
		}
		pos = sp[1]
	}
	if pos != len(text) {
		t.Fatalf("segments cover [0,%d) of a text of %d bytes", pos, len(text))
	}
}

// spansOf turns a list of segment texts into spans.
func spansOf(segs []string) [][2]int {
	var out [][2]int
	off := 0
	for _, s := range segs {
		out = append(out, [2]int{off, off + len(s)})
		off += len(s)
	}
	return out
}

func equalSpans(a, b [][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// fmtSpans prints spans compactly, e.g. "[0,7) [7,12)".
func fmtSpans(spans [][2]int) string {
	var b strings.Builder
	for i, sp := range spans {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "[%d,%d)", sp[0], sp[1])
	}
	return b.String()
}

// pieces are the building blocks of generated texts: every rule's trigger,
// near misses, multi-byte runes and broken UTF-8.
var pieces = []string{
	"a", "word", "Hello", "x", "3.14", "e.g.", "U.S.A", "Mr.", "1.",
	" ", " ", " ", "  ", "\t", "\v", "\f",
	".", ".", "!", "?", "…", "...", "?!",
	"\"", "'", ")", "]", "”", "’", "»", "(", "“", "«", "「", "」",
	"。", "！", "？", "，", "你好", "世界", "こんにちは", "ｘ",
	"\n", "\n", "\r", "\r\n", "\n\n", "\r\n\r\n",
	"é", "e\u0301", "Привет", "مرحبا", "नमस्ते", "\u00a0", "\u3000",
	"👋🏽", "👨\u200d👩\u200d👧\u200d👦", "🏳️\u200d🌈", "\u200d",
	"\xff", "\xfe", "\x80", "\xc2", "\xe2\x80", "\xe3", "\xe3\x80", "\xf0\x9f", "\xf0\x9f\x98",
	"\xed\xa0\x80", "\xc0\xaf", "\xef\xbf\xbd", "\xe2\x80\xa6", "\xe3\x80\x82",
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"一二三四五六七八九十一二三四五六七八九十",
}

// genText builds a random text of up to about n pieces.
func genText(rng *rand.Rand, n int) []byte {
	var b []byte
	k := rng.IntN(n + 1)
	for range k {
		b = append(b, pieces[rng.IntN(len(pieces))]...)
	}
	return b
}

// caps are the segment size caps the randomized tests use.
var caps = []int{16, 17, 19, 24, 32, 61, 128, 1024}
