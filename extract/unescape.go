package extract

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// sval returns the decoded value of a JSON string v. gjson's decoding
// (v.Str, a view of the payload when there are no escapes) is right except
// for surrogate escapes: it swallows the escape that follows a lone high
// surrogate ("\ud800\u0041" loses the "A"), which would let text hide from
// analysis. Strings that may hold a surrogate escape are decoded here
// instead, like encoding/json does: an unpaired surrogate becomes U+FFFD and
// the next escape is decoded on its own.
func sval(v gjson.Result) string {
	raw := v.Raw
	if len(raw) < 2 || raw[0] != '"' || !maySurrogate(raw) {
		return v.Str
	}
	return unescape(raw[1 : len(raw)-1])
}

// maySurrogate reports whether raw holds "\ud" or "\uD", the start of a
// surrogate escape (or, harmlessly, an escaped backslash before "ud").
func maySurrogate(raw string) bool {
	for {
		i := strings.Index(raw, `\u`)
		if i < 0 || i+2 >= len(raw) {
			return false
		}
		if c := raw[i+2]; c == 'd' || c == 'D' {
			return true
		}
		raw = raw[i+2:]
	}
}

// unescape decodes the body of a valid JSON string (between the quotes).
func unescape(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			j := strings.IndexByte(s[i:], '\\')
			if j < 0 {
				b = append(b, s[i:]...)
				break
			}
			b = append(b, s[i:i+j]...)
			i += j
			continue
		}
		if i+1 >= len(s) {
			break // not valid JSON; gjson.ValidBytes rejects it
		}
		switch s[i+1] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := hex4(s, i+2)
			if !ok {
				return string(b) // not valid JSON
			}
			i += 6
			if utf16.IsSurrogate(r) {
				r2, ok := hex4(s, i+2)
				if i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' && ok {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
			continue
		default: // '"', '\\', '/'
			b = append(b, s[i+1])
		}
		i += 2
	}
	return string(b)
}

// hex4 decodes the four hex digits at s[i:].
func hex4(s string, i int) (rune, bool) {
	if i < 0 || i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
