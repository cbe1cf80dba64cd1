// Package segmenter cuts the text of an item (UTF-8, arriving in small
// deltas) into segments for analysis, at boundaries that depend on the text
// alone: the same text gives the same segments whether it is fed whole, byte
// by byte or in any other chunks (SPEC §3).
//
// # Offsets
//
// Segments are reported as byte offsets, never copies. Segmenter.Next
// returns the length of the segment that starts at data[0], or 0 for "need
// more text"; Scanner.Span returns [start, end) offsets into the whole text.
// Segments tile the text: each starts where the previous one ended, none is
// empty, the last ends at len(text), and none is longer than MaxBytes. Every
// boundary lies between two runes as utf8.DecodeRune reads the text from its
// start (an invalid byte counts as a 1-byte rune), so no UTF-8 sequence is
// ever split.
//
// # Boundary rules
//
// Scanning a segment from its first byte, the segment ends at the first of:
//
//   - Line break: a maximal run of '\r' and '\n' bytes ends a segment right
//     after the run. So "\r\n", "\n\n" and "\r\n\r\n" each stay in one
//     segment and a lone '\r' is a break too. Telling where the run ends
//     needs the byte after it: a run at the end of the available data means
//     "need more".
//   - Sentence end: a terminator (. ! ? or … U+2026), then any mix of
//     further terminators and closers (the ASCII quote, apostrophe, ")" and
//     "]", and ” U+201D, ’ U+2019, » U+00BB), then a whitespace byte (space,
//     tab, vertical tab, form feed): the boundary is right after that
//     whitespace byte. So "?! ", "...) " and ".” " end sentences. Further
//     whitespace starts the next segment. If the byte after the terminators
//     and closers is '\r' or '\n', the line break rule applies instead.
//     Anything else after them (a digit, a letter: "3.14", "e.g.x", "U.S.A")
//     means no boundary; a terminator, possibly followed by closers, at the
//     end of the available data means "need more".
//   - CJK sentence end: right after '。' (U+3002), '！' (U+FF01) or '？'
//     (U+FF1F); no whitespace is needed, and closers after them start the
//     next segment.
//   - Size cap: when MaxBytes bytes are available (whether or not more text
//     follows) and none of the rules above gives a boundary at or before
//     MaxBytes, the segment ends right after the last whitespace byte (' ',
//     '\t', '\v', '\f', '\r', '\n') in its first MaxBytes bytes, or, if there
//     is none, at MaxBytes backed off to the start of the rune that does not
//     fit. A sequence that is incomplete within the first MaxBytes bytes
//     (utf8.FullRune is false) counts as not fitting, so this cut depends on
//     those bytes only. A boundary at or before MaxBytes that needs one byte
//     of look-ahead past MaxBytes (the end of a line break run) is always
//     also the last whitespace, so the cap gives the same cut. Note that a
//     text of exactly MaxBytes bytes without a boundary is cut too, after
//     its last whitespace byte.
//   - End of text: with atEOF, the remaining data (shorter than MaxBytes)
//     with no boundary forms the last segment.
//
// A least length (NewMinMax; none with New): a line break or a sentence end
// that would end a segment less than MinBytes bytes long is not a boundary,
// and the scan goes on (the line break run, or the terminators and the
// whitespace after them, are then ordinary text). The size cap and the end
// of the text still cut wherever they fall, so the last segment and a
// capped one may be shorter. The rule looks at the segment's own bytes only,
// so segments still depend on the text alone.
//
// Only ASCII whitespace counts as whitespace. Bytes of an invalid or
// incomplete sequence never form a terminator, closer or whitespace; at the
// end of the available data an incomplete sequence means "need more" unless
// atEOF, where its bytes are invalid.
//
// # Incremental use
//
// An analyzer keeps, per item, the text received so far and the offset where
// the current segment starts, and calls
//
//	n := seg.Next(text[segStart:], atEOF)
//
// after each delta until it returns 0 (atEOF once the item is complete),
// advancing segStart by n each time. The Segmenter remembers how far it has
// scanned, so the total cost is linear in the text. Scanner does the same over
// a whole text; Segmenter.Split adapts it to bufio.Scanner.
//
// Hot path: a 256-entry byte-class table drives the scan, runs of plain ASCII
// and spaces are skipped in a tight loop, and no call allocates.
//
// # Dependencies
//
// segmenter imports the standard library only (unicode/utf8). The analyzer
// imports it, never the reverse:
//
//	segmenter (stdlib only) ← analyzer ← server ← cmd/raiserver
package segmenter
