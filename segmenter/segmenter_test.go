package segmenter_test

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/openrai/raiserver/segmenter"
)

type segCase struct {
	name string
	max  int // 0: DefaultMaxBytes
	segs []string
}

func (c segCase) text() []byte { return []byte(strings.Join(c.segs, "")) }

// segCases names a case for every rule. The text of a case is its segments
// joined, so the wanted cut is visible in the table.
var segCases = []segCase{
	{name: "empty input", segs: nil},
	{name: "no boundary flushed at EOF", segs: []string{"Hello world"}},
	{name: "single byte", segs: []string{"x"}},

	{name: "sentence end then space", segs: []string{"Hello. ", "World"}},
	{name: "sentence end keeps only first space", segs: []string{"Hello. ", " World"}},
	{name: "exclamation and question", segs: []string{"Stop! ", "Why? ", "Now"}},
	{name: "repeated terminators", segs: []string{"Really?! ", "Yes... ", "ok"}},
	{name: "sentence end then tab", segs: []string{"One.\t", "Two"}},
	{name: "sentence end then vertical tab and form feed", segs: []string{"One.\v", "Two.\f", "Three"}},
	{name: "ellipsis rune", segs: []string{"Wait… ", "what"}},
	{name: "terminator at EOF", segs: []string{"The end."}},
	{name: "terminator then space at EOF", segs: []string{"The end. "}},

	{name: "decimal number", segs: []string{"Pi is 3.14 or so"}},
	{name: "abbreviation without space", segs: []string{"e.g.x and U.S.A stay"}},
	{name: "abbreviation with space is a boundary", segs: []string{"Ask Mr. ", "Smith"}},
	{name: "version and path", segs: []string{"v1.2.3 at ./a/b.go"}},
	{name: "terminator then letter", segs: []string{"a.b!c?d"}},

	{name: "closing ASCII quote", segs: []string{`He said "Stop." `, "Then left."}},
	{name: "closing paren and bracket", segs: []string{"(See [1].) ", "Next"}},
	{name: "several closers", segs: []string{`"Go!")] `, "x"}},
	{name: "closing curly quotes", segs: []string{"“Stop.” ", "‘Go!’ ", "x"}},
	{name: "closing guillemet", segs: []string{"«Non.» ", "Oui"}},
	{name: "apostrophe closer", segs: []string{"It's 'done.' ", "ok"}},
	{name: "closer without terminator", segs: []string{`a" b) c] d” e`}},
	{name: "closer then letter", segs: []string{`He said "Hi."there`}},

	{name: "CJK full stop", segs: []string{"你好。", "再见"}},
	{name: "CJK all terminators", segs: []string{"你好。", "再见！", "好吗？", "是"}},
	{name: "CJK terminator at EOF", segs: []string{"你好。"}},
	{name: "CJK terminator then closer", segs: []string{"「你好。", "」他说"}},
	{name: "CJK comma no boundary", segs: []string{"你好，世界"}},
	{name: "CJK terminator after ASCII terminator", segs: []string{"a.。", "b"}},
	{name: "halfwidth and ideographic space are no boundary", segs: []string{"a.\u3000b.\u00a0c"}},

	{name: "newline", segs: []string{"a\n", "b"}},
	{name: "CRLF", segs: []string{"a\r\n", "b"}},
	{name: "newline run", segs: []string{"a\n\n\n", "b"}},
	{name: "CRLF run", segs: []string{"a\r\n\r\n", "b"}},
	{name: "lone CR", segs: []string{"a\r", "b"}},
	{name: "LF CR", segs: []string{"a\n\r", "b"}},
	{name: "leading newline", segs: []string{"\n", "a"}},
	{name: "only newlines", segs: []string{"\n\r\n\n"}},
	{name: "trailing newline at EOF", segs: []string{"a\n"}},
	{name: "terminator then newline", segs: []string{"Hi.\n", "There"}},
	{name: "terminator then CRLF", segs: []string{"Hi.\r\n", "There"}},
	{name: "terminator closer newline run", segs: []string{"Hi.”\n\n", "There"}},
	{name: "newline then space", segs: []string{"a\n", " b"}},
	{name: "newline before multibyte", segs: []string{"a\n", "你"}},
	{name: "newline before invalid byte", segs: []string{"a\n", "\xff"}},

	{name: "cap at word boundary", max: 16, segs: []string{"aaaa bbbb cccc ", "dddd eeee"}},
	{name: "cap at tab", max: 16, segs: []string{"aaaa\t", "bbbbbbbbbbbbbbbb", "b"}},
	{name: "cap whitespace is last byte", max: 16, segs: []string{"aaaaaaaaaaaaaaa ", "b"}},
	{name: "cap whitespace is first byte", max: 16, segs: []string{" ", "aaaaaaaaaaaaaaaa", "aaaa"}},
	{name: "cap ASCII without whitespace", max: 16, segs: []string{"aaaaaaaaaaaaaaaa", "aaaa"}},
	{name: "cap boundary just before cap", max: 16, segs: []string{"aaaa bbbb ccc. ", "x"}},
	{name: "cap boundary at cap", max: 16, segs: []string{"aaaaaaaaaaaaaa. ", "x"}},
	{name: "cap terminator at cap", max: 16, segs: []string{"aaaaa ", "aaaaaaaaa. ", "x"}},
	{name: "cap exact length is cut", max: 16, segs: []string{"aaaaa ", "bbbbbbbbbb"}},
	{name: "cap exact length without space", max: 16, segs: []string{"aaaaaaaaaaaaaaaa"}},
	{name: "cap newline run at cap", max: 16, segs: []string{"aaaaaaaaaaaaaa\n\n", "x"}},
	{name: "cap newline run across cap", max: 16, segs: []string{"aaaaaaaaaaaaaa\n\n", "\n\n", "x"}},
	{name: "cap CRLF split at cap", max: 16, segs: []string{"aaaaaaaaaaaaaaa\r", "\n", "x"}},
	{name: "cap CJK without punctuation", max: 16, segs: []string{"一二三四五", "六七八"}},
	{name: "cap CJK terminator crossing cap", max: 16, segs: []string{"一二三四五", "。", "六"}},
	{name: "cap emoji ZWJ sequence", max: 16, segs: []string{"👨\u200d👩\u200d", "👧\u200d👦"}},
	{name: "cap emoji ZWJ repeated", max: 32, segs: []string{
		"👨\u200d👩\u200d👧\u200d👦👨\u200d",
		"👩\u200d👧\u200d👦👨\u200d👩\u200d",
		"👧\u200d👦",
	}},
	{name: "cap flag and skin tone", max: 16, segs: []string{"🏳️\u200d🌈", "👋🏽"}},
	{name: "cap default", segs: []string{strings.Repeat("a", 1024), "b"}},
	{name: "cap default word boundary", segs: []string{strings.Repeat("abc ", 255) + "ab ", "cdef"}},

	{name: "invalid bytes", max: 16, segs: []string{"\xff\xfe\xff\xfe\xff\xfe\xff\xfe\xff\xfe\xff\xfe\xff\xfe\xff\xfe", "\xff\xfe"}},
	{name: "invalid byte then terminator", segs: []string{"\xff. ", "x"}},
	{name: "terminator then invalid byte", segs: []string{"a.\xff b"}},
	{name: "truncated sequence in the middle", segs: []string{"a\xe3\x80b. ", "c"}},
	{name: "truncated sequence at EOF", segs: []string{"abc\xe3\x80"}},
	{name: "truncated ellipsis is no terminator", segs: []string{"a\xe2\x80 b"}},
	{name: "surrogate encoding is invalid", segs: []string{"a\xed\xa0\x80. ", "b"}},
	{name: "overlong encoding is invalid", segs: []string{"\xc0\xae \xc0\xaf"}},
	{name: "cap before sequence incomplete in window", max: 16, segs: []string{"aaaaaaaaaaaaaaa", "\xe3Abbbbb"}},
	{name: "cap after invalid sequence complete in window", max: 16, segs: []string{"aaaaaaaaaaaaaa\xe3A", "bbbbb"}},
	{name: "cap invalid continuation bytes", max: 16, segs: []string{"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80", "\x80"}},
}

func TestSegments(t *testing.T) {
	for _, c := range segCases {
		t.Run(c.name, func(t *testing.T) {
			text := c.text()
			want := spansOf(c.segs)
			got := segmenter.Segments(text, c.max)
			if !equalSpans(got, want) {
				t.Fatalf("Segments = %s, want %s", fmtSpans(got), fmtSpans(want))
			}
			max := segmenter.New(c.max).MaxBytes()
			checkInvariants(t, text, max, got)
			if ref := refSegments(text, max); !equalSpans(ref, want) {
				t.Fatalf("reference = %s, want %s", fmtSpans(ref), fmtSpans(want))
			}
			for name, chunks := range map[string][][]byte{
				"whole":    chunkWhole(text),
				"bytewise": chunkBytes(text),
				"random":   chunkRandom(text, 1),
			} {
				if got := feed(t, segmenter.New(c.max), chunks); !equalSpans(got, want) {
					t.Fatalf("fed %s = %s, want %s", name, fmtSpans(got), fmtSpans(want))
				}
			}
		})
	}
}

// TestNext pins single calls: when Next answers and when it needs more.
func TestNext(t *testing.T) {
	tests := []struct {
		name  string
		data  string
		atEOF bool
		max   int
		want  int
	}{
		{name: "empty", data: "", want: 0},
		{name: "empty at EOF", data: "", atEOF: true, want: 0},
		{name: "plain text needs more", data: "Hello wor", want: 0},
		{name: "plain text at EOF", data: "Hello wor", atEOF: true, want: 9},
		{name: "terminator needs more", data: "Hi.", want: 0},
		{name: "terminator and closer need more", data: "Hi.”", want: 0},
		{name: "terminator and partial closer need more", data: "Hi.\xe2\x80", want: 0},
		{name: "terminator and space", data: "Hi. ", want: 4},
		{name: "terminator and letter needs more", data: "3.1", want: 0},
		{name: "newline needs more", data: "a\n", want: 0},
		{name: "CR needs more", data: "a\r", want: 0},
		{name: "newline run ended", data: "a\n\nb", want: 3},
		{name: "newline at EOF", data: "a\n", atEOF: true, want: 2},
		{name: "CJK terminator needs nothing more", data: "你好。", want: 9},
		{name: "partial CJK terminator needs more", data: "你好\xe3\x80", want: 0},
		{name: "partial rune at EOF", data: "你好\xe3\x80", atEOF: true, want: 8},
		{name: "cap reached", data: "aaaa bbbb cccc dddd", max: 16, want: 15},
		{name: "cap reached at EOF", data: "aaaa bbbb cccc dddd", max: 16, atEOF: true, want: 15},
		{name: "cap exactly reached", data: "aaaa bbbb cccc d", max: 16, want: 15},
		{name: "one byte short of cap", data: "aaaa bbbb cccc ", max: 16, want: 0},
		{name: "cap with partial rune in window", data: "aaaaaaaaaaaaaa\xf0\x9f", max: 16, want: 14},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := segmenter.New(tt.max).Next([]byte(tt.data), tt.atEOF); got != tt.want {
				t.Fatalf("Next(len %d, atEOF %v) = %d, want %d", len(tt.data), tt.atEOF, got, tt.want)
			}
		})
	}
}

func TestNew(t *testing.T) {
	for _, tt := range []struct{ in, want int }{
		{0, segmenter.DefaultMaxBytes},
		{-5, segmenter.DefaultMaxBytes},
		{1, segmenter.MinMaxBytes},
		{15, segmenter.MinMaxBytes},
		{16, 16},
		{100, 100},
		{1 << 20, 1 << 20},
	} {
		if got := segmenter.New(tt.in).MaxBytes(); got != tt.want {
			t.Errorf("New(%d).MaxBytes() = %d, want %d", tt.in, got, tt.want)
		}
	}
	var zero segmenter.Segmenter
	if got := zero.MaxBytes(); got != segmenter.DefaultMaxBytes {
		t.Errorf("zero Segmenter MaxBytes() = %d, want %d", got, segmenter.DefaultMaxBytes)
	}
	if got := zero.Next([]byte("Hi. there"), false); got != 4 {
		t.Errorf("zero Segmenter Next = %d, want 4", got)
	}
	var sc segmenter.Scanner
	if sc.Next() || sc.MaxBytes() != segmenter.DefaultMaxBytes {
		t.Errorf("zero Scanner: want no segments and the default cap")
	}
}

// TestNewMinMax checks the least segment length: line breaks and sentence
// ends short of it are not boundaries, the cap and the end of the text
// still cut, and the minimum is clamped to [0, cap].
func TestNewMinMax(t *testing.T) {
	text := []byte("Hi.\nOk. Sure! A longer line\n\nend。x")
	for _, tt := range []struct {
		min  int
		want []string
	}{
		{0, []string{"Hi.\n", "Ok. ", "Sure! ", "A longer line\n\n", "end。", "x"}},
		{4, []string{"Hi.\n", "Ok. ", "Sure! ", "A longer line\n\n", "end。", "x"}},
		{5, []string{"Hi.\nOk. ", "Sure! ", "A longer line\n\n", "end。", "x"}},
		{8, []string{"Hi.\nOk. ", "Sure! A longer line\n\n", "end。x"}},
		{100, []string{"Hi.\nOk. Sure! A longer line\n\nend。x"}},
	} {
		seg := segmenter.NewMinMax(tt.min, 0)
		if got, want := feed(t, seg, chunkBytes(text)), spansOf(tt.want); !equalSpans(got, want) {
			t.Errorf("min %d: %s, want %s", tt.min, fmtSpans(got), fmtSpans(want))
		}
	}
	// The cap still cuts a segment short of the minimum's next boundary.
	if got, want := feed(t, segmenter.NewMinMax(20, 16), chunkWhole([]byte("aaaa. bbbb. cccc dddd"))), spansOf([]string{"aaaa. bbbb. ", "cccc dddd"}); !equalSpans(got, want) {
		t.Errorf("min 20, cap 16: %s, want %s", fmtSpans(got), fmtSpans(want))
	}
	for _, tt := range []struct{ min, max, want int }{{-1, 0, 0}, {0, 0, 0}, {128, 0, 128}, {5000, 100, 100}} {
		if got := segmenter.NewMinMax(tt.min, tt.max).MinBytes(); got != tt.want {
			t.Errorf("NewMinMax(%d, %d).MinBytes() = %d, want %d", tt.min, tt.max, got, tt.want)
		}
	}
}

// TestInvariance feeds the same texts whole, byte by byte and in random
// chunks, and wants the same segments every time.
func TestInvariance(t *testing.T) {
	var texts [][]byte
	for _, c := range segCases {
		texts = append(texts, c.text())
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for range 60 {
		texts = append(texts, genText(rng, 120))
	}
	texts = append(texts, benchTexts()...)
	for ti, text := range texts {
		for _, max := range caps {
			want := segmenter.Segments(text, max)
			checkInvariants(t, text, max, want)
			check := func(how string, chunks [][]byte) {
				t.Helper()
				if got := feed(t, segmenter.New(max), chunks); !equalSpans(got, want) {
					t.Fatalf("text %d (len %d), max %d, fed %s: %s, want %s",
						ti, len(text), max, how, fmtSpans(got), fmtSpans(want))
				}
			}
			check("whole", chunkWhole(text))
			check("bytewise", chunkBytes(text))
			for seed := range uint64(20) {
				check("random", chunkRandom(text, seed))
			}
		}
	}
}

// TestReuse checks that one Segmenter serves many items in turn, as the
// analyzer reuses it, and that Reset drops a half-scanned segment.
func TestReuse(t *testing.T) {
	seg := segmenter.New(32)
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range 200 {
		text := genText(rng, 40)
		want := segmenter.Segments(text, 32)
		if got := feed(t, seg, chunkRandom(text, uint64(i))); !equalSpans(got, want) {
			t.Fatalf("item %d: %s, want %s", i, fmtSpans(got), fmtSpans(want))
		}
	}

	seg = segmenter.New(0)
	if n := seg.Next([]byte("Hi.\n"), false); n != 0 {
		t.Fatalf("Next = %d, want 0", n)
	}
	seg.Reset()
	if n := seg.Next([]byte("x"), true); n != 1 {
		t.Fatalf("after Reset: Next = %d, want 1", n)
	}

	// A caller that breaks the contract by passing less data than was
	// scanned gets a fresh scan, not a panic.
	seg = segmenter.New(0)
	if n := seg.Next([]byte("abcdefgh"), false); n != 0 {
		t.Fatalf("Next = %d, want 0", n)
	}
	if n := seg.Next([]byte("ab. c"), false); n != 4 {
		t.Fatalf("shorter data: Next = %d, want 4", n)
	}
}

// TestResumes checks that after "need more" the Segmenter has scanned all
// available data but at most an incomplete rune, so byte-by-byte feeding is
// linear, not quadratic.
func TestResumes(t *testing.T) {
	// Bytes already scanned are not read again: a boundary slipped into
	// them (which breaks the caller's contract) goes unseen.
	seg := segmenter.New(0)
	if n := seg.Next([]byte("abcd"), false); n != 0 {
		t.Fatalf("Next = %d, want 0", n)
	}
	if n := seg.Next([]byte("a. defg"), false); n != 0 {
		t.Fatalf("Next re-read scanned bytes: = %d, want 0", n)
	}
	if n := seg.Next([]byte("a. defg. h"), false); n != 9 {
		t.Fatalf("Next = %d, want 9", n)
	}

	text := bytes.Repeat([]byte("word, 3.14 你好 👨\u200d👩\u200d👧 \xff"), 4000)
	seg = segmenter.New(1 << 20)
	start := 0
	for end := 1; end <= len(text); end++ {
		for {
			data := text[start:end]
			n := seg.Next(data, false)
			if n == 0 {
				if back := len(data) - segmenter.Scanned(seg); back < 0 || back > 3 {
					t.Fatalf("at offset %d: scanned %d of %d bytes", end, segmenter.Scanned(seg), len(data))
				}
				break
			}
			start += n
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	text := bytes.Join(benchTexts(), nil)
	seg := segmenter.New(0)
	if a := testing.AllocsPerRun(20, func() { feedByteByByte(seg, text) }); a != 0 {
		t.Errorf("incremental: %v allocs per run, want 0", a)
	}
	sc := segmenter.NewScanner(nil, 0)
	if a := testing.AllocsPerRun(20, func() {
		sc.Reset(text)
		for sc.Next() {
		}
	}); a != 0 {
		t.Errorf("Scanner: %v allocs per run, want 0", a)
	}
}

func TestScanner(t *testing.T) {
	text := []byte("One. Two!\nThree")
	sc := segmenter.NewScanner(text, 0)
	var got []string
	for sc.Next() {
		start, end := sc.Span()
		if string(sc.Bytes()) != string(text[start:end]) {
			t.Fatalf("Bytes and Span disagree at [%d,%d)", start, end)
		}
		got = append(got, string(sc.Bytes()))
	}
	if want := []string{"One. ", "Two!\n", "Three"}; !slices.Equal(got, want) {
		t.Fatalf("spans %s, want %s", fmtSpans(spansOf(got)), fmtSpans(spansOf(want)))
	}
	if sc.Next() {
		t.Fatal("Next after the end = true")
	}
	sc.Reset(text[:4])
	if !sc.Next() || sc.Next() {
		t.Fatal("after Reset: want exactly one segment")
	}
}

// TestSplit runs Segmenter.Split under bufio.Scanner over a reader that
// returns one byte per Read.
func TestSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		text := genText(rng, 200)
		for _, max := range []int{16, 1024} {
			bs := bufio.NewScanner(iotest.OneByteReader(bytes.NewReader(text)))
			bs.Split(segmenter.New(max).Split)
			var got [][2]int
			off := 0
			for bs.Scan() {
				got = append(got, [2]int{off, off + len(bs.Bytes())})
				off += len(bs.Bytes())
			}
			if err := bs.Err(); err != nil {
				t.Fatalf("text %d: %v", i, err)
			}
			if want := segmenter.Segments(text, max); !equalSpans(got, want) {
				t.Fatalf("text %d, max %d: %s, want %s", i, max, fmtSpans(got), fmtSpans(want))
			}
		}
	}
}

// TestDifferential compares the fast Segmenter with the slow reference on
// generated texts, fed whole and in chunks.
func TestDifferential(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(2024, 6))
	for i := range n {
		text := genText(rng, 1+rng.IntN(150))
		max := caps[rng.IntN(len(caps))]
		want := refSegments(text, max)
		checkInvariants(t, text, max, want)
		if got := segmenter.Segments(text, max); !equalSpans(got, want) {
			t.Fatalf("text %d (len %d), max %d: %s, reference %s", i, len(text), max, fmtSpans(got), fmtSpans(want))
		}
		if got := feed(t, segmenter.New(max), chunkRandom(text, uint64(i))); !equalSpans(got, want) {
			t.Fatalf("text %d (len %d), max %d, chunked: %s, reference %s", i, len(text), max, fmtSpans(got), fmtSpans(want))
		}
	}
	// Random bytes: mostly invalid UTF-8 with the ASCII that matters.
	alphabet := []byte(" .!?\n\r\"')]abc\x80\xbf\xc2\xbb\xe2\x80\x9d\xa6\xe3\x82\xef\xbc\x81\x9f\xf0\x9f\xff")
	for i := range n {
		text := make([]byte, rng.IntN(200))
		for j := range text {
			text[j] = alphabet[rng.IntN(len(alphabet))]
		}
		max := caps[rng.IntN(len(caps))]
		want := refSegments(text, max)
		if got := feed(t, segmenter.New(max), chunkRandom(text, uint64(i))); !equalSpans(got, want) {
			t.Fatalf("bytes %d (len %d), max %d: %s, reference %s", i, len(text), max, fmtSpans(got), fmtSpans(want))
		}
	}
}
