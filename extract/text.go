package extract

// Text is one item's text as its readers hold it: the analyzer, which cuts
// and classifies it, and the client gate, which releases it. Offsets are
// byte offsets into everything the item has received (SPEC §2), but only
// the part a reader still needs is kept: Forget lets go of the text before
// an offset, so that the memory a long stream holds does not grow with its
// length. Text an API may repeat (Piece.Full, Realtime only) is compared
// with everything received, so an item whose pieces may be Full keeps all
// of it (NewText).
//
// The zero value is an empty item whose text is forgotten on request.
type Text struct {
	// b holds the text from byte base on.
	b    []byte
	base int
	// whole says the text is never forgotten: its pieces may be Full.
	whole bool
}

// forgetMin is the least amount of forgotten text worth moving the rest
// for: Forget copies the kept text down only once the text before it is
// at least forgetMin bytes and at least as long as what is kept, so each
// byte is copied a bounded number of times.
const forgetMin = 4 << 10

// NewText returns an empty item's text for pieces of api. An API whose
// pieces may be Full keeps the whole text (Forget does nothing), since a
// Full piece is compared with all of it (Piece.Extends).
func NewText(api API) Text { return Text{whole: api.RepeatsText()} }

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

// Add appends what p adds to the item (Piece.Extends) and returns it.
// A Full piece that reaches back into forgotten text cannot be compared,
// so it is treated as disagreeing and added whole: nothing escapes
// analysis. That happens only if an API whose pieces are not Full
// (RepeatsText) sends one.
func (t *Text) Add(p *Piece) string {
	var add string
	if t.base == 0 {
		add = p.Extends(t.b)
	} else {
		add = p.Text
	}
	t.b = append(t.b, add...)
	return add
}

// Forget says the reader needs no text before offset off again (at most
// Len: the text not received yet is never forgotten). The text
// is let go of in steps (forgetMin), and never for an item that keeps its
// whole text (NewText).
func (t *Text) Forget(off int) {
	off = min(off, t.Len())
	n := off - t.base // bytes that may go
	if t.whole || n < forgetMin || n < len(t.b)-n {
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
