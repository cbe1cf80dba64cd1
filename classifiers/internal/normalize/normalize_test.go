package normalize_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openrai/raiserver/classifiers/internal/normalize"
)

var n = normalize.New()

func norm(s string) string {
	d, _ := n.Append(nil, nil, []byte(s))
	return string(d)
}

func TestTransformations(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"ascii lower passes", "hello world", "hello world"},
		{"case folding", "HeLLo WORLD", "hello world"},
		{"whitespace collapse", "a  \t b", "a b"},
		{"line break kept", "a \r\n\n b", "a\nb"},
		{"control dropped", "a\x00b\x7f", "ab"},
		{"nfkc fullwidth", "ｈｅｌｌｏ", "hello"},
		{"nfkc ligature", "ﬁne", "fine"},
		{"math bold", "𝐡𝐞𝐥𝐥𝐨", "hello"},
		{"math script", "𝓱𝓮𝓵𝓵𝓸", "hello"},
		{"circled letters", "ⓗⓔⓛⓛⓞ", "hello"},
		{"negative squared", "🅷🅴🅻🅻🅾", "hello"},
		{"parenthesized", "⒣⒠⒧⒧⒪", "hello"},
		{"accents stripped", "héllö", "hello"},
		{"zalgo stripped", "h̶e̷l̸l̴o̵", "hello"},
		{"zero width removed", "he\u200bl\u200dl\u2060o\ufeff", "hello"},
		{"bidi controls removed", "he\u202el\u2066lo\u2069", "hello"},
		{"soft hyphen removed", "hel\u00adlo", "hello"},
		{"cyrillic look-alikes", "неllо", "hello"},
		{"greek look-alikes", "ΗΕΛΛΟ"[0:0] + "Ηεllο", "hello"},
		{"small capitals", "ʜᴇʟʟᴏ", "hello"},
		{"nbsp is space", "a\u00a0b", "a b"},
		{"curly apostrophe", "it’s", "it's"},
		{"dashes", "ab–cd—ef", "ab-cd-ef"},
		{"eszett", "straße", "strasse"},
		{"cjk kept", "日本語", "日本語"},
		{"emoji kept zwj dropped", "👩\u200d👩\u200d👧", "👩👩👧"},
		{"leet inside word", "h3ll0 w0rld", "hello world"},
		{"leet symbols", "$h!t @ss", "shit ass"},
		{"leet one kept as wildcard", "k1ll", "k1ll"},
		{"leet pipe", "he||o", "hello"},
		{"number alone untouched", "7 days", "7 days"},
		{"year untouched", "in 2024", "in 2024"},
		{"price untouched", "$100", "$100"},
		{"time untouched", "10am", "10am"},
		{"longer number untouched", "covid19", "covid19"},
		{"exclamation at end kept", "wow!", "wow!"},
		{"stretched letters", "diiiiie", "die"},
		{"double letter kept", "kill", "kill"},
		{"stretched double", "killllll", "kil"},
		{"dot separated", "k.i.l.l", "kill"},
		{"space separated", "k i l l you", "kill you"},
		{"dash separated", "k-i-l-l", "kill"},
		{"underscore separated", "k_i_l_l", "kill"},
		{"two letters not joined", "a b c", "abc"},
		{"pairs not joined", "a.m. today", "a.m. today"},
		{"invalid utf8", "a\xffb", "a\ufffdb"},
		{"tag characters revealed", "a\U000E0068\U000E0069b", "ahib"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := norm(tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// checkOffsets verifies the offset-map invariants for one Append.
func checkOffsets(t testing.TB, src, dst []byte, offs []int32) {
	t.Helper()
	if len(offs) != len(dst)+1 {
		t.Fatalf("len(offs) = %d, want len(dst)+1 = %d", len(offs), len(dst)+1)
	}
	if int(offs[len(dst)]) != len(src) {
		t.Fatalf("final offset %d, want %d", offs[len(dst)], len(src))
	}
	// Boundaries: where decoding src rune by rune (invalid bytes one at a
	// time) starts a rune.
	starts := map[int]bool{len(src): true}
	for i := 0; i < len(src); {
		starts[i] = true
		_, size := utf8.DecodeRune(src[i:])
		i += size
	}
	prev := int32(0)
	for i, o := range offs {
		if o < prev || int(o) > len(src) {
			t.Fatalf("offs[%d] = %d out of order or range (prev %d, len %d)", i, o, prev, len(src))
		}
		prev = o
		if !starts[int(o)] {
			t.Fatalf("offs[%d] = %d is not on a rune boundary", i, o)
		}
	}
	if !utf8.Valid(dst) {
		t.Fatalf("output is not valid UTF-8")
	}
}

func TestOffsets(t *testing.T) {
	tests := []struct {
		name, in, word string
		start, end     int
	}{
		{"ascii", "say hello now", "hello", 4, 9},
		{"upper", "say HELLO now", "hello", 4, 9},
		{"fullwidth", "say ｈｅｌｌｏ now", "hello", 4, 19},
		{"stretched end", "say hellooooo now", "hello", 4, 13},
		{"separated", "say h.e.l.l.o now", "hello", 4, 13},
		{"zero width inside", "say hel\u200blo now", "hello", 4, 12},
		{"combining mark at end", "say hello\u0301 now", "hello", 4, 11},
		{"after collapsed space", "say    hello now", "hello", 7, 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.in)
			dst, offs := n.Append(nil, nil, src)
			checkOffsets(t, src, dst, offs)
			i := bytes.Index(dst, []byte(tt.word))
			if i < 0 {
				t.Fatalf("word not found in %q", dst)
			}
			s, e := normalize.Span(offs, i, i+len(tt.word))
			if s != tt.start || e != tt.end {
				t.Errorf("span = [%d,%d), want [%d,%d)", s, e, tt.start, tt.end)
			}
		})
	}
}

func TestAppendKeepsPrefix(t *testing.T) {
	dst := []byte("ab")
	offs := []int32{7, 8, 9} // a previous call's map with its end entry
	dst, offs = n.Append(dst, offs, []byte("CD"))
	if string(dst) != "abcd" || len(offs) != 5 || offs[0] != 7 || offs[2] != 0 || offs[3] != 1 || offs[4] != 2 {
		t.Fatalf("got %q %v", dst, offs)
	}
}

// TestFolds checks what AppendFolds reports for each kind of rewriting,
// and that lower-casing and collapsing whitespace report nothing.
func TestFolds(t *testing.T) {
	tests := []struct {
		name string
		text string
		want normalize.Folds
	}{
		{"plain", "Hello  World.\n\nHow are you?", 0},
		{"numbers", "covid 19 in 2024, 10am", 0},
		{"leet inside", "k1ll th3m", normalize.Leet},
		{"leet symbol inside", "sh!t", normalize.Leet},
		{"leet edge", "4ss", normalize.LeetEdge},
		{"leet trailing digit", "mp3", normalize.LeetEdge},
		{"stretched", "diiiie", normalize.Stretched},
		{"spelled", "k i l l", normalize.Spelled},
		{"spelled dots", "b.a.k.e it", normalize.Spelled},
		{"initials", "U.S.A. is big", normalize.Initials},
		{"control", "a\x01b", normalize.Controls},
		{"confusable", "\u043a", normalize.Runes},
		{"fullwidth", "\uff4b", normalize.Runes},
		{"invisible", "ki\u200bll", normalize.Runes},
		{"invalid byte", "a\xffb", normalize.Runes},
		{"kept rune", "日本", 0},
		{"several", "k1ll \u043a i i i l", normalize.Leet | normalize.Runes | normalize.Spelled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, o := n.Append(nil, nil, []byte(tc.text))
			d2, o2, got := n.AppendFolds(nil, nil, []byte(tc.text))
			if got != tc.want {
				t.Errorf("folds %07b, want %07b", got, tc.want)
			}
			if !bytes.Equal(d, d2) || len(o) != len(o2) {
				t.Errorf("AppendFolds and Append differ")
			}
		})
	}
}

// TestASCIIDifferential checks the fast path against the obvious slow
// version on text without leetspeak, runs or separators to rewrite.
func TestASCIIDifferential(t *testing.T) {
	src := "The Quick brown fox, jumps over the lazy dog. How are you today? Fine; thanks\n"
	want := strings.ToLower(src)
	want = strings.TrimRight(want, "\n") + "\n"
	if got := norm(src); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestZeroAllocs(t *testing.T) {
	for _, in := range [][]byte{ascii2K, mixed2K, cjk2K, emoji2K} {
		dst := make([]byte, 0, 8*len(in))
		offs := make([]int32, 0, 8*len(in)+1)
		allocs := testing.AllocsPerRun(100, func() {
			dst, offs = n.Append(dst[:0], offs[:0], in)
		})
		if allocs != 0 {
			t.Errorf("Append allocates %.1f times per call", allocs)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"", "hello", "k.i.l.l", "h3ll0 w0rld 2024", "ｋｉｌｌ", "diiiie", "a\xffb",
		"👩\u200d👩\u200d👧", "he\u202el\u2066lo", "ﷺ", "ǅ", "\U000E0068", "k i l l", "a  \n b"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		dst, offs := n.Append(nil, nil, src)
		checkOffsets(t, src, dst, offs)
		for i := 0; i < len(dst); i++ {
			if c := dst[i]; c >= 'A' && c <= 'Z' {
				t.Fatalf("upper-case byte in output at %d", i)
			}
		}
		// Appending to a prefix gives the same bytes after it.
		dst2, offs2 := n.Append([]byte("x"), []int32{0}, src)
		if !bytes.Equal(dst2[1:], dst) || len(offs2) != len(offs)+1 {
			t.Fatalf("append with prefix differs")
		}
		// Idempotence is not promised (leetspeak and runs), but normalizing
		// the output again must keep it valid.
		d3, o3 := n.Append(nil, nil, dst)
		checkOffsets(t, dst, d3, o3)
	})
}

var (
	ascii2K = []byte(strings.Repeat("hello there, how do i kill a python process that hangs? thanks for the help! ", 27)[:2048])
	mixed2K = []byte(strings.Repeat("Hello wörld — Привет мир, γειά σου κόσμε; ｆｕｌｌｗｉｄｔｈ and 𝐛𝐨𝐥𝐝 text. ", 30)[:2048])
	cjk2K   = []byte(strings.Repeat("这是一个测试文本。日本語のテキストです。한국어 텍스트입니다. ", 40)[:2040])
	emoji2K = []byte(strings.Repeat("family 👩\u200d👩\u200d👧 thumbs 👍🏽 flag 🏳️\u200d🌈 heart ❤️ ", 40)[:2040])
)

func bench(b *testing.B, in []byte) {
	dst := make([]byte, 0, 8*len(in))
	offs := make([]int32, 0, 8*len(in)+1)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		dst, offs = n.Append(dst[:0], offs[:0], in)
	}
}

func BenchmarkASCII2K(b *testing.B)       { bench(b, ascii2K) }
func BenchmarkMixedScript2K(b *testing.B) { bench(b, mixed2K) }
func BenchmarkCJK2K(b *testing.B)         { bench(b, cjk2K) }
func BenchmarkEmojiZWJ(b *testing.B)      { bench(b, emoji2K) }
