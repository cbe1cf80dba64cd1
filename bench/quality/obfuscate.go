package main

import (
	"encoding/csv"
	"errors"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"
)

// An obfuscation rewrites a text the way an evader would. Each one but
// the three -profanity ones applies to every word of the text: a stricter
// test than touching only the harmful words. Those three touch only the
// words of the public profanity list, as people do.
type obfuscation struct {
	name string
	fn   func(string) string
}

var obfuscations = []obfuscation{
	{"homoglyph-cyrillic", mapLetters(map[rune]rune{
		'a': 'а', 'c': 'с', 'e': 'е', 'i': 'і', 'o': 'о', 'p': 'р', 'x': 'х', 'y': 'у', 's': 'ѕ', 'j': 'ј',
	})},
	{"homoglyph-greek", mapLetters(map[rune]rune{
		'a': 'α', 'e': 'ε', 'i': 'ι', 'k': 'κ', 'o': 'ο', 'p': 'ρ', 't': 'τ', 'u': 'υ', 'v': 'ν',
	})},
	{"fullwidth", func(s string) string {
		return strings.Map(func(r rune) rune {
			if r > ' ' && r < 0x7f {
				return r - 0x21 + 0xff01
			}
			return r
		}, s)
	}},
	{"math-bold", func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 0x1d41a
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 0x1d400
			case r >= '0' && r <= '9':
				return r - '0' + 0x1d7ce
			}
			return r
		}, s)
	}},
	{"zero-width", interleave("\u200b")},
	{"bidi-controls", func(s string) string {
		// Isolates around every word and a mark inside it.
		return eachWord(s, func(w string) string {
			return "\u2067" + interleave("\u200e")(w) + "\u2069"
		})
	}},
	{"leetspeak", func(s string) string {
		return strings.Map(func(r rune) rune {
			switch r {
			case 'a', 'A':
				return '4'
			case 'e', 'E':
				return '3'
			case 'i', 'I':
				return '1'
			case 'o', 'O':
				return '0'
			case 's', 'S':
				return '5'
			case 't', 'T':
				return '7'
			}
			return r
		}, s)
	}},
	{"stretched", func(s string) string {
		var b strings.Builder
		for _, r := range s {
			b.WriteRune(r)
			if strings.ContainsRune("aeiouAEIOU", r) {
				b.WriteRune(r)
				b.WriteRune(r)
			}
		}
		return b.String()
	}},
	{"separator-dot", interleave(".")},
	{"separator-space", interleave(" ")},
	{"masked-profanity", func(s string) string { return listWords(s, maskList, maskWord) }},
	{"broken-profanity", func(s string) string { return listWords(s, maskList, breakWord) }},
	{"swapped-profanity", func(s string) string { return listWords(s, maskList, swapWord) }},
}

// maskList is the word list masked-profanity hides: the single words of
// the public profanity list in ../shared/data (surge_profanity), lower
// case. Empty when that list is absent; the row is then left out.
var maskList map[string]bool

// loadMaskList reads the profanity list at path (its text and canonical
// form columns) into the single words of letters it holds, lower case. A
// missing file gives an empty list and no error.
func loadMaskList(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, err
	}
	list := map[string]bool{}
	for i, r := range recs {
		if i == 0 || len(r) < 4 {
			continue // header
		}
		for _, w := range r[:4] {
			w = strings.ToLower(strings.TrimSpace(w))
			if len(w) >= 3 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" {
				list[w] = true
			}
		}
	}
	return list, nil
}

// maskWord hides a word the way people do: its first vowel after the
// first letter becomes '*' ("f*ck"), or its second letter when it has
// none.
func maskWord(w string) string {
	b := []byte(w)
	k := strings.IndexAny(w[1:], "aeiouAEIOU") + 1
	if k == 0 {
		k = 1
	}
	b[k] = '*'
	return string(b)
}

// listWords rewrites with fn every word of s that list holds, as people
// respell the words they expect a filter to catch, and leaves the others
// alone.
func listWords(s string, list map[string]bool, fn func(string) string) string {
	return eachWord(s, func(w string) string {
		if len(w) < 3 || !list[strings.ToLower(w)] {
			return w
		}
		return fn(w)
	})
}

// breakWord puts a dot in the middle of w ("ki.ll").
func breakWord(w string) string { return w[:len(w)/2] + "." + w[len(w)/2:] }

// swapWord swaps the two letters in the middle of a word of four letters
// or more, as a typo does ("klil"), unless they are the same letter.
func swapWord(w string) string {
	k := len(w)/2 - 1
	if len(w) < 4 || w[k] == w[k+1] {
		return w
	}
	return w[:k] + w[k+1:k+2] + w[k:k+1] + w[k+2:]
}

func mapLetters(m map[rune]rune) func(string) string {
	return func(s string) string {
		return strings.Map(func(r rune) rune {
			if x, ok := m[r]; ok {
				return x
			}
			if r >= 'A' && r <= 'Z' {
				if x, ok := m[r+'a'-'A']; ok {
					return x
				}
			}
			return r
		}, s)
	}
}

// interleave puts sep between the letters of every word.
func interleave(sep string) func(string) string {
	return func(s string) string {
		return eachWord(s, func(w string) string {
			var b strings.Builder
			for i, r := range w {
				if i > 0 {
					b.WriteString(sep)
				}
				b.WriteRune(r)
			}
			return b.String()
		})
	}
}

// eachWord rewrites every maximal run of letters and digits with fn.
func eachWord(s string, fn func(string) string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isWordRune(r) {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !isWordRune(r) {
				break
			}
			j += n
		}
		b.WriteString(fn(s[i:j]))
		i = j
	}
	return b.String()
}

func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}
