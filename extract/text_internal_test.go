package extract

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTextMatchesWholeText adds random pieces to a Text and forgets at
// random offsets, and checks every kept byte against the whole text built
// alongside: offsets never move, Add returns what Extends gives on the
// whole text, and only what was forgotten is gone.
func TestTextMatchesWholeText(t *testing.T) {
	for _, api := range []API{APIChat, APIRealtime} {
		for seed := range uint64(10) {
			rng := rand.New(rand.NewPCG(seed, 3))
			text := NewText(api)
			var whole []byte
			forgotten := 0 // the highest offset Forget was given
			for range 3000 {
				p := Piece{Text: strings.Repeat(string(rune('a'+rng.IntN(26))), 1+rng.IntN(200))}
				if api.RepeatsText() && rng.IntN(4) == 0 {
					// A Full piece: a prefix of what came so far, all of
					// it and more, or short text that disagrees with it.
					switch rng.IntN(3) {
					case 0:
						p = Piece{Text: string(whole[:rng.IntN(len(whole)+1)]), Full: true}
					case 1:
						p = Piece{Text: string(whole) + p.Text, Full: true}
					default:
						p = Piece{Text: "#" + p.Text, Full: true}
					}
				}
				want := p.Extends(whole)
				if got := text.Add(&p); got != want {
					t.Fatalf("%v seed %d: Add gave %d bytes, Extends on the whole text %d", api, seed, len(got), len(want))
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
				if kept > max(forgotten, 0) || api.RepeatsText() && kept != 0 {
					t.Fatalf("%v seed %d: kept from %d, forgotten up to %d", api, seed, kept, forgotten)
				}
				if !bytes.Equal(text.Slice(kept, text.Len()), whole[kept:]) {
					t.Fatalf("%v seed %d: kept text differs from the whole text", api, seed)
				}
			}
			if !api.RepeatsText() && text.Kept() == 0 {
				t.Errorf("%v seed %d: nothing forgotten of %d bytes", api, seed, len(whole))
			}
		}
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
