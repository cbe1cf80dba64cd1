package segmenter_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openrai/raiserver/segmenter"
)

// benchShapes are the benchmark inputs, named by shape, about 2 KiB each.
var benchShapes = []struct {
	name string
	text []byte
}{
	{"ASCII2K", fill("The quick brown fox jumps over the lazy dog. Version 3.14 shipped, e.g. on Monday! "+
		"Did it work? \"Yes,\" she said.\n", 2048)},
	{"CJK2K", fill("今天天气很好，我们去公园散步吧。你觉得怎么样？好的！明日は晴れるでしょう。", 2048)},
	{"EmojiZWJ", fill("👨\u200d👩\u200d👧\u200d👦👩🏽\u200d💻🏳️\u200d🌈🧑🏿\u200d🚀👋🏽", 2048)},
	{"MixedScript", fill("Hello мир! مرحبا بالعالم. 世界你好。 नमस्ते दुनिया… Γειά σου κόσμε? 👋🏽 ok\n", 2048)},
}

// fill repeats s up to n bytes, cut at a rune boundary.
func fill(s string, n int) []byte {
	b := []byte(strings.Repeat(s, n/len(s)+1))[:n]
	for !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return b
}

// benchTexts returns the benchmark inputs for tests that want realistic text.
func benchTexts() [][]byte {
	out := make([][]byte, len(benchShapes))
	for i, s := range benchShapes {
		out[i] = s.text
	}
	return out
}

// BenchmarkScanner segments each whole text at once.
func BenchmarkScanner(b *testing.B) {
	for _, shape := range benchShapes {
		b.Run(shape.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(shape.text)))
			sc := segmenter.NewScanner(nil, 0)
			for b.Loop() {
				sc.Reset(shape.text)
				for sc.Next() {
				}
			}
		})
	}
}

// BenchmarkIncremental feeds each text one byte at a time, keeping offsets
// into the received text as the analyzer does.
func BenchmarkIncremental(b *testing.B) {
	for _, shape := range benchShapes {
		b.Run(shape.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(shape.text)))
			seg := segmenter.New(0)
			text := shape.text
			for b.Loop() {
				feedByteByByte(seg, text)
			}
		})
	}
}

// feedByteByByte cuts text with seg as a stream that grows one byte at a
// time, then ends.
func feedByteByByte(seg *segmenter.Segmenter, text []byte) {
	start := 0
	for end := 1; end <= len(text); end++ {
		for {
			n := seg.Next(text[start:end], false)
			if n == 0 {
				break
			}
			start += n
		}
	}
	for start < len(text) {
		start += seg.Next(text[start:], true)
	}
}
