package segmenter

// Scanner cuts a whole text into segments, in the manner of bufio.Scanner:
//
//	sc := segmenter.NewScanner(text, 0)
//	for sc.Next() {
//		start, end := sc.Span()
//		// text[start:end] is a segment
//	}
//
// It yields exactly the segments that a Segmenter yields for the same text
// fed incrementally. The zero Scanner scans an empty text with
// DefaultMaxBytes; a Scanner is reusable through Reset and does not allocate
// while scanning.
type Scanner struct {
	seg        Segmenter
	text       []byte
	start, end int
}

// NewScanner returns a Scanner over text with segments of at most maxBytes
// (see New for how maxBytes is interpreted).
func NewScanner(text []byte, maxBytes int) *Scanner {
	return &Scanner{seg: Segmenter{max: clampMax(maxBytes)}, text: text}
}

// Reset makes sc scan text from its start, keeping the size cap.
func (sc *Scanner) Reset(text []byte) {
	sc.seg.Reset()
	sc.text, sc.start, sc.end = text, 0, 0
}

// Next advances to the next segment, which Span then reports. It returns
// false when the text is exhausted.
func (sc *Scanner) Next() bool {
	if sc.end >= len(sc.text) {
		sc.start = sc.end
		return false
	}
	n := sc.seg.Next(sc.text[sc.end:], true)
	sc.start, sc.end = sc.end, sc.end+n
	return true
}

// Span returns the byte offsets [start, end) of the current segment in the
// text.
func (sc *Scanner) Span() (start, end int) { return sc.start, sc.end }

// Bytes returns the current segment. It aliases the text; no copy is made.
func (sc *Scanner) Bytes() []byte { return sc.text[sc.start:sc.end] }

// MaxBytes returns the segment size cap.
func (sc *Scanner) MaxBytes() int { return sc.seg.MaxBytes() }

// Segments returns the spans [start, end) of all segments of text, with
// segments of at most maxBytes (see New). It allocates the result; it is
// meant for tests and tools.
func Segments(text []byte, maxBytes int) [][2]int {
	var out [][2]int
	sc := NewScanner(text, maxBytes)
	for sc.Next() {
		start, end := sc.Span()
		out = append(out, [2]int{start, end})
	}
	return out
}

// Split is a bufio.SplitFunc that yields segments as tokens, so that a
// bufio.Scanner can segment an io.Reader:
//
//	bs := bufio.NewScanner(r)
//	bs.Split(segmenter.New(0).Split)
//
// The bufio.Scanner's buffer must be able to hold MaxBytes bytes (the
// default buffer does for caps up to bufio.MaxScanTokenSize). Split never
// returns an error.
func (s *Segmenter) Split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	n := s.Next(data, atEOF)
	if n == 0 {
		return 0, nil, nil
	}
	return n, data[:n], nil
}
