package extract

// Text is one item's text as its readers hold it: the analyzer, which cuts
// and classifies it, and the client gate, which releases it. Offsets are
// byte offsets into everything the item has received (SPEC §2), but only
// the part a reader still needs is kept: Forget lets go of the text before
// an offset, so that the memory a long stream holds does not grow with its
// length.
//
// A Full piece (Realtime only) repeats the item's text, and is compared
// with the item's current version: its text since the last Full piece
// that disagreed with what came before it, or all of it if none did. A
// Full piece that disagrees starts a new version, so that repeating it
// (the server's echo of a changed session.update, say) adds nothing
// again. An item whose pieces may be Full keeps its current version
// (NewText); the versions before it are forgotten like any other text.
//
// The zero value is an empty item of an API that never repeats text.
type Text struct {
	// b holds the text from byte base on.
	b    []byte
	base int
	// version is where the current version starts.
	version int
	// repeats says pieces may be Full: the current version is kept.
	repeats bool
}

// forgetMin is the least amount of forgotten text worth moving the rest
// for: Forget copies the kept text down only once the text before it is
// at least forgetMin bytes and at least as long as what is kept, so each
// byte is copied a bounded number of times.
const forgetMin = 4 << 10

// NewText returns an empty item's text for pieces of api. An API whose
// pieces may be Full keeps the current version of the text (Forget goes
// no further), since a Full piece is compared with it.
func NewText(api API) Text { return Text{repeats: api.RepeatsText()} }

// RepeatsText reports whether a's payloads may repeat text an item already
// received (Piece.Full): Realtime's done events and echoes do.
func (a API) RepeatsText() bool { return a == APIRealtime }

// Len returns the item's length: every byte it has received.
func (t *Text) Len() int { return t.base + len(t.b) }

// Kept returns the offset of the first byte still held: 0 until Forget
// lets go of something.
func (t *Text) Kept() int { return t.base }

// Slice returns the item's text [from, to). It panics unless
// Kept() <= from <= to <= Len(). The slice is valid until the next Add or
// Forget.
func (t *Text) Slice(from, to int) []byte { return t.b[from-t.base : to-t.base] }

// Add appends what p adds to the item and returns it: p's text, or for a
// Full piece what Piece.Extends gives against the current version. A Full
// piece that adds its whole text to a version that was not empty
// disagreed with it, and starts the next version. A Full piece whose
// version was forgotten cannot be compared, so it is added whole (nothing
// escapes analysis); that happens only if an API that does not repeat
// text (RepeatsText) sends one.
func (t *Text) Add(p *Piece) string {
	add := p.Text
	if p.Full {
		if t.version < t.base {
			t.version = t.Len()
		} else {
			have := t.b[t.version-t.base:]
			add = p.Extends(have)
			if len(have) > 0 && add != "" && len(add) == len(p.Text) {
				t.version = t.Len()
			}
		}
	}
	t.b = append(t.b, add...)
	return add
}

// Forget says the reader needs no text before offset off again (at most
// Len: the text not received yet is never forgotten). The text is let go
// of in steps (forgetMin), and never past the start of the current
// version of an item whose pieces may be Full (NewText).
func (t *Text) Forget(off int) {
	off = min(off, t.Len())
	if t.repeats {
		off = min(off, t.version)
	}
	n := off - t.base // bytes that may go
	if n < forgetMin || n < len(t.b)-n {
		return
	}
	keep := t.b[n:]
	if cap(t.b) > 4*forgetMin && 4*len(keep) < cap(t.b) {
		// Most of a large buffer would sit unused: give it back.
		t.b = append(make([]byte, 0, 2*len(keep)+forgetMin), keep...)
	} else {
		t.b = t.b[:copy(t.b, keep)]
	}
	t.base = off
}
