package extract

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTextMatchesWholeText adds random pieces to a Text and forgets at
// random offsets, and checks it against the whole text built alongside
// with the obvious rule (a Full piece is compared with the whole text
// since the last Full piece that disagreed): offsets never move, Add
// returns what the rule adds, and only what was forgotten is gone.
func TestTextMatchesWholeText(t *testing.T) {
	for _, api := range []API{APIChat, APIRealtime} {
		for seed := range uint64(10) {
			rng := rand.New(rand.NewPCG(seed, 3))
			text := NewText(api)
			var whole []byte
			version := 0   // where the current version starts in whole
			forgotten := 0 // the highest offset Forget was given
			for range 3000 {
				p := Piece{Text: strings.Repeat(string(rune('a'+rng.IntN(26))), 1+rng.IntN(200))}
				cur := whole[version:]
				if api.RepeatsText() && rng.IntN(4) == 0 {
					// A Full piece: a prefix of the current version,
					// all of it and more, or short text that disagrees
					// with it.
					switch rng.IntN(3) {
					case 0:
						p = Piece{Text: string(cur[:rng.IntN(len(cur)+1)]), Full: true}
					case 1:
						p = Piece{Text: string(cur) + p.Text, Full: true}
					default:
						p = Piece{Text: "#" + p.Text, Full: true}
					}
				}
				want := p.Text
				if p.Full {
					switch {
					case strings.HasPrefix(p.Text, string(cur)):
						want = p.Text[len(cur):]
					case strings.HasPrefix(string(cur), p.Text):
						want = ""
					default:
						version = len(whole)
					}
				}
				if got := text.Add(&p); got != want {
					t.Fatalf("%v seed %d: Add gave %d bytes, want %d", api, seed, len(got), len(want))
				}
				whole = append(whole, want...)
				if rng.IntN(3) == 0 {
					forgotten = max(forgotten, len(whole)-rng.IntN(300))
					text.Forget(max(forgotten, text.Kept()))
				}
				if text.Len() != len(whole) {
					t.Fatalf("%v seed %d: Len %d, want %d", api, seed, text.Len(), len(whole))
				}
				kept := text.Kept()
				if kept > max(forgotten, 0) || api.RepeatsText() && kept > version {
					t.Fatalf("%v seed %d: kept from %d, forgotten up to %d, version from %d", api, seed, kept, forgotten, version)
				}
				if !bytes.Equal(text.Slice(kept, text.Len()), whole[kept:]) {
					t.Fatalf("%v seed %d: kept text differs from the whole text", api, seed)
				}
			}
			if text.Kept() == 0 {
				t.Errorf("%v seed %d: nothing forgotten of %d bytes", api, seed, len(whole))
			}
		}
	}
}

// TestTextVersions: a Full piece that disagrees starts a new version, and
// repeating it adds nothing (a Realtime session.update that changes the
// instructions, then the server's echo of it); the versions before the
// current one are forgotten.
func TestTextVersions(t *testing.T) {
	text := NewText(APIRealtime)
	v1 := strings.Repeat("be brief. ", 500)
	v2 := strings.Repeat("be kind. ", 600)
	for i, step := range []struct {
		text string
		want int // bytes added
	}{{v1, len(v1)}, {v1, 0}, {v2, len(v2)}, {v2, 0}, {v2[:20], 0}, {v2 + "ok", 2}, {v1, len(v1)}} {
		p := Piece{Text: step.text, Full: true}
		if got := text.Add(&p); len(got) != step.want {
			t.Errorf("step %d: added %d bytes, want %d", i, len(got), step.want)
		}
	}
	text.Forget(text.Len())
	if text.Kept() != text.Len()-len(v1) {
		t.Errorf("kept from %d of %d, want the last version's %d bytes", text.Kept(), text.Len(), len(v1))
	}
}

// TestTextMemoryIsBounded streams 4 MiB through a Text that forgets all
// but the last 2 KiB: what it holds stays a few times forgetMin, and a
// large piece's buffer is given back once it is forgotten.
func TestTextMemoryIsBounded(t *testing.T) {
	text := NewText(APIChat)
	p := Piece{Text: strings.Repeat("x", 100)}
	for text.Len() < 4<<20 {
		text.Add(&p)
		text.Forget(text.Len() - 2048)
		if c := cap(text.b); c > 8*forgetMin {
			t.Fatalf("holds %d bytes at offset %d", c, text.Len())
		}
	}
	big := Piece{Text: strings.Repeat("y", 1<<20)}
	text.Add(&big)
	text.Add(&p)
	text.Forget(text.Len() - 100)
	if c := cap(text.b); c > 4*forgetMin {
		t.Errorf("holds %d bytes after a 1 MiB piece was forgotten", c)
	}
}

// TestTextFullAfterForget: a Full piece that reaches back into forgotten
// text cannot be compared, so all of it is added (analyzed again rather
// than skipped).
func TestTextFullAfterForget(t *testing.T) {
	text := Text{}
	p := Piece{Text: strings.Repeat("z", 3*forgetMin)}
	text.Add(&p)
	text.Forget(2 * forgetMin)
	if text.Kept() != 2*forgetMin {
		t.Fatalf("kept from %d", text.Kept())
	}
	full := Piece{Text: p.Text, Full: true}
	if got := text.Add(&full); got != full.Text {
		t.Errorf("Full piece added %d bytes, want all %d", len(got), len(full.Text))
	}
	if text.Len() != 6*forgetMin {
		t.Errorf("Len %d", text.Len())
	}
}
