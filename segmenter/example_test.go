package segmenter_test

import (
	"fmt"

	"github.com/openrai/raiserver/segmenter"
)

func Example() {
	text := []byte("Hi there. Pi is 3.14!\r\nLine two\n\n你好。再见")
	sc := segmenter.NewScanner(text, 0)
	for sc.Next() {
		start, end := sc.Span()
		fmt.Printf("[%d,%d) %q\n", start, end, text[start:end])
	}
	// Output:
	// [0,10) "Hi there. "
	// [10,23) "Pi is 3.14!\r\n"
	// [23,33) "Line two\n\n"
	// [33,42) "你好。"
	// [42,48) "再见"
}

// Next is fed the unsegmented text as it grows; it answers 0 until the end of
// a segment is known.
func ExampleSegmenter_Next() {
	seg := segmenter.New(0)
	var text []byte
	start := 0
	for _, delta := range []string{"Hel", "lo.", " Wor", "ld"} {
		text = append(text, delta...)
		for {
			n := seg.Next(text[start:], false)
			if n == 0 {
				break
			}
			fmt.Printf("after %q: segment [%d,%d)\n", delta, start, start+n)
			start += n
		}
	}
	if n := seg.Next(text[start:], true); n > 0 {
		fmt.Printf("at EOF: segment [%d,%d)\n", start, start+n)
	}
	// Output:
	// after " Wor": segment [0,7)
	// at EOF: segment [7,12)
}

// The size cap cuts after the last whitespace, or between runes.
func ExampleSegments() {
	text := []byte("a long run of words without any end " + "一二三四五六七八")
	for _, sp := range segmenter.Segments(text, 16) {
		fmt.Printf("%v %q\n", sp, text[sp[0]:sp[1]])
	}
	// Output:
	// [0 14] "a long run of "
	// [14 28] "words without "
	// [28 36] "any end "
	// [36 51] "一二三四五"
	// [51 60] "六七八"
}
