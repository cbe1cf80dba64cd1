package segmenter_test

import (
	"testing"

	"github.com/openrai/raiserver/segmenter"
)

// FuzzSegmenter checks, for any text, chunking and cap, that the segments
// tile the text within the cap and between runes, that feeding whole, byte by
// byte and in seeded random chunks gives the same segments, and that they are
// the reference implementation's.
func FuzzSegmenter(f *testing.F) {
	f.Add([]byte("Hello. World! Pi is 3.14?\r\nNext line\n\nend"), uint64(1), uint16(0))
	f.Add([]byte("你好。再见！好吗？「是。」一二三四五六七八九十"), uint64(2), uint16(16))
	f.Add([]byte("👨\u200d👩\u200d👧\u200d👦 👋🏽 aaaaaaaaaaaaaaaaaaaa"), uint64(3), uint16(17))
	f.Add([]byte("\xff. \xe3\x80\xe2\x80\xa6 \xf0\x9f\x98"), uint64(4), uint16(5))
	f.Fuzz(func(t *testing.T, text []byte, seed uint64, rawMax uint16) {
		// The reference re-decodes the rest of the text for every segment;
		// longer inputs only slow the fuzzer down without reaching new rules.
		if len(text) > 2048 {
			text = text[:2048]
		}
		max := 0 // DefaultMaxBytes
		if rawMax != 0 {
			max = int(rawMax % 200) // below MinMaxBytes is raised to it
		}
		want := segmenter.Segments(text, max)
		capBytes := segmenter.New(max).MaxBytes()
		checkInvariants(t, text, capBytes, want)
		if ref := refSegments(text, capBytes); !equalSpans(want, ref) {
			t.Fatalf("len %d, max %d: %s, reference %s", len(text), capBytes, fmtSpans(want), fmtSpans(ref))
		}
		for how, chunks := range map[string][][]byte{
			"whole":    chunkWhole(text),
			"bytewise": chunkBytes(text),
			"random":   chunkRandom(text, seed),
		} {
			if got := feed(t, segmenter.New(max), chunks); !equalSpans(got, want) {
				t.Fatalf("len %d, max %d, fed %s: %s, want %s", len(text), capBytes, how, fmtSpans(got), fmtSpans(want))
			}
		}
	})
}

// FuzzSegmenterMin is FuzzSegmenter with a least segment length
// (NewMinMax): the same tiling and invariance, against the reference with
// the natural boundaries short of the minimum left out.
func FuzzSegmenterMin(f *testing.F) {
	f.Add([]byte("Hi.\nOk. Sure! Next line\n\nend. More text here.\r\nA"), uint64(1), uint16(8), uint16(0))
	f.Add([]byte("你好。再见！好吗？「是。」一二三四五六七八九十"), uint64(2), uint16(7), uint16(16))
	f.Add([]byte("a\n\n\n\nb. c? d\r\re"), uint64(3), uint16(3), uint16(20))
	f.Fuzz(func(t *testing.T, text []byte, seed uint64, rawMin, rawMax uint16) {
		if len(text) > 2048 {
			text = text[:2048]
		}
		max := 0
		if rawMax != 0 {
			max = int(rawMax % 200)
		}
		seg := segmenter.NewMinMax(int(rawMin%300), max)
		capBytes, minBytes := seg.MaxBytes(), seg.MinBytes()
		want := feed(t, seg, chunkWhole(text))
		checkInvariants(t, text, capBytes, want)
		if ref := refSegmentsMin(text, minBytes, capBytes); !equalSpans(want, ref) {
			t.Fatalf("len %d, min %d, max %d: %s, reference %s", len(text), minBytes, capBytes, fmtSpans(want), fmtSpans(ref))
		}
		for how, chunks := range map[string][][]byte{
			"bytewise": chunkBytes(text),
			"random":   chunkRandom(text, seed),
		} {
			if got := feed(t, segmenter.NewMinMax(minBytes, max), chunks); !equalSpans(got, want) {
				t.Fatalf("len %d, min %d, max %d, fed %s: %s, want %s", len(text), minBytes, capBytes, how, fmtSpans(got), fmtSpans(want))
			}
		}
	})
}
