package train

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/openrai/raiserver/classifiers/linear"
)

// probe exercises every kind of folding the normalization does: case,
// confusables, width, combining marks, invisible and bidi characters,
// leetspeak, stretched letters, letter spacing, other scripts, emoji.
var probe = strings.Join([]string{
	"Hello, WORLD! Ünïcödé façade café naïve",
	"Ηеllо рrоbе (Cyrillic and Greek look-alikes)",
	"ｆｕｌｌｗｉｄｔｈ ＴＥＸＴ 𝐛𝐨𝐥𝐝 𝒔𝒄𝒓𝒊𝒑𝒕",
	"zero\u200bwidth\u200djoin\u2060word \u202eflipped\u202c \u2067isolate\u2069",
	"l33t sp34k th1s 71me h@ck3r $tuff k1tt3n",
	"sooooo looooong heeeello",
	"s p a c e d  o u t   and d.o.t.t.e.d and d-a-s-h-e-d",
	"Привет мир 今日は 안녕하세요 مرحبا 🦊🐕‍🦺 2024-01-02 covid19 mp3",
	"tabs\tand\nnew\r\nlines   and   spaces",
}, "\n")

// NormalizationFingerprint is the SHA-256 of the probe text normalized by
// n. The manifest records it, and a test compares it with the current
// code: a change in classifiers/internal/normalize changes what the model sees, so
// the model must be retrained (go run ./cmd/rai-train).
func NormalizationFingerprint(n linear.Normalization) string {
	s := sha256.Sum256(n.Append(nil, []byte(probe)))
	return hex.EncodeToString(s[:])
}
