package normalize

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// masks are the five results of lower16 (and of each sixteen of lower64).
type masks struct{ bad, sp, letter, eq, sep uint64 }

// lower16Ref is the definition of lower16, one byte at a time; p2 and p1
// are the two output bytes before the block (before's bytes).
func lower16Ref(src []byte, off int32, p2, p1 byte) (y [16]byte, o [16]int32, m masks) {
	for k, c := range src[:16] {
		if c >= 0x80 || c < 0x20 || c >= 0x21 && c <= 0x24 || c >= '0' && c <= '9' || c == '@' || c > 0x7b {
			m.bad |= 1 << k
		}
		if c >= 'A' && c <= 'Z' {
			c |= 0x20
		}
		y[k], o[k] = c, off+int32(k)
	}
	for k, c := range y {
		if c == ' ' {
			m.sp |= 1 << k
		}
		if c >= 'a' && c <= 'z' {
			m.letter |= 1 << k
		}
		if props[c]&pSep != 0 {
			m.sep |= 1 << k
		}
		y1, y2 := p1, p2 // the bytes one and two lanes before
		switch {
		case k >= 2:
			y1, y2 = y[k-1], y[k-2]
		case k == 1:
			y1, y2 = y[0], p1
		}
		if c == y1 && c == y2 {
			m.eq |= 1 << k
		}
	}
	return y, o, m
}

// block16 returns random bytes, mostly the ones the block paths see in
// chat (letters of both cases, spaces, punctuation), now and then any
// byte, with runs of one letter and letters standing alone.
func block16(r *rand.Rand) []byte {
	const chat = "abcdefghijklmnopqrstuvwxyzAEIKLZ    .,'-?!()\":;/"
	b := make([]byte, 17)
	for k := range b {
		switch r.IntN(20) {
		case 0:
			b[k] = byte(r.IntN(256))
		case 1, 2:
			if k > 0 {
				b[k] = b[k-1]
			}
		default:
			b[k] = chat[r.IntN(len(chat))]
		}
	}
	return b
}

// TestLower16MatchesDefinition checks the SIMD lower16 against its
// definition on random blocks.
func TestLower16MatchesDefinition(t *testing.T) {
	if !haveLower16 {
		t.Skip("no lower16 on this architecture")
	}
	r := rand.New(rand.NewPCG(21, 22))
	for round := range 200000 {
		src := block16(r)
		off := int32(r.IntN(1 << 20))
		// The bytes before: none, or any two, or copies of the first.
		var p2, p1 byte
		switch r.IntN(3) {
		case 1:
			p2, p1 = byte(r.IntN(256)), byte(r.IntN(256))
		case 2:
			p2, p1 = src[0]|0x20, src[0]|0x20
		}
		var d [16]byte
		var o [16]int32
		var m masks
		m.bad, m.sp, m.letter, m.eq, m.sep = lower16(&d[0], &o[0], &src[0], off, uint64(p1)<<8|uint64(p2))
		wy, wo, wm := lower16Ref(src, off, p2, p1)
		if d != wy || o != wo || m != wm {
			t.Fatalf("round %d: lower16 gave masks %+v, the definition %+v (or other bytes or offsets)", round, m, wm)
		}
	}
}

// bytePathMarks reports what the byte path of fold would do with the n
// output bytes at d[w:w+n] after d[base:w]: whether it would mark a place
// for the compaction pass (a run of three letters, or a separator that
// ends a chain), exactly as its checks are written.
func bytePathMarks(d []byte, base, w, n int) bool {
	for k := w; k < w+n; k++ {
		m := d[k]
		if props[m]&pSep != 0 {
			if k >= base+3 && chain(d, base, k) {
				return true
			}
		} else if k >= base+2 && m == d[k-1] && m == d[k-2] && props[m]&pLetter != 0 {
			return true
		}
	}
	return false
}

// plainDefinition is whether plainPrefix must accept all of the n output bytes
// at d[w:w+n] after d[base:w], whose not-plain mask is bad: plain, no
// space after whitespace and, with detect, nothing the byte path would
// mark for the compaction pass.
func plainDefinition(bad uint64, d []byte, base, w, n int, detect bool) bool {
	if bad != 0 {
		return false
	}
	for k := w; k < w+n; k++ {
		if d[k] == ' ' && k > base && (d[k-1] == ' ' || d[k-1] == '\n') {
			return false
		}
	}
	return !detect || !bytePathMarks(d, base, w, n)
}

// prefixDefinition is what plainPrefix must return: the number of bytes
// before the first of d[w:w+n] that plainDefinition refuses on its own
// (each looks back into d), or n.
func prefixDefinition(bad uint64, d []byte, base, w, n int, detect bool) int {
	for k := range n {
		if !plainDefinition(bad>>k&1, d, base, w+k, 1, detect) {
			return k
		}
	}
	return n
}

// checkPrefix returns what plainPrefix makes of the masks m (bad, sp,
// letter, e, sep) of the n bytes at d[w:], after failing the test unless
// it is prefixDefinition and it accepts all of them just when
// plainDefinition does.
func checkPrefix(t *testing.T, round int, m [5]uint64, d []byte, base, w, n int, detect bool) int {
	t.Helper()
	k := plainPrefix(m[0], m[1], m[2], m[3], m[4], d, base, w, n, detect)
	if want := prefixDefinition(m[0], d, base, w, n, detect); k != want {
		t.Fatalf("round %d (base %d, detect %v): plainPrefix %d, definition %d", round, base, detect, k, want)
	}
	if got, want := k == n, plainDefinition(m[0], d, base, w, n, detect); got != want {
		t.Fatalf("round %d (base %d, detect %v): plainPrefix accepts all %v, definition %v", round, base, detect, got, want)
	}
	return k
}

// earlierOutput returns room for n output bytes after four bytes of
// earlier output drawn from prev.
func earlierOutput(r *rand.Rand, prev string, n int) []byte {
	d := make([]byte, 4+n)
	for k := range 4 {
		d[k] = prev[r.IntN(len(prev))]
	}
	return d
}

// TestPlain16 checks plainPrefix on sixteen bytes against its definition: a block is accepted
// when it is plain (block8's bytes, no space after whitespace) and, with
// detect, the byte path would mark nothing in it for the compaction pass;
// and every block block8 accepts in two halves is accepted, with the same
// bytes.
func TestPlain16(t *testing.T) {
	if !haveLower16 {
		t.Skip("no lower16 on this architecture")
	}
	r := rand.New(rand.NewPCG(23, 24))
	const prev = "ab  .,'1\n9\xc3-"
	accepted, rejectedLone, partial := 0, 0, 0
	for round := range 300000 {
		src := block16(r)
		detect := r.IntN(4) != 0
		// Up to four bytes of earlier output.
		base := r.IntN(5) // up to w: a block at the very start of the text
		d := earlierOutput(r, prev, 16)
		w := 4
		var o [16]int32
		bad, sp, letter, e, sep := lower16(&d[w], &o[0], &src[0], 0, before(d, base, w))
		k := checkPrefix(t, round, [5]uint64{bad, sp, letter, e, sep}, d, base, w, 16, detect)
		got := k == 16
		if k > 0 && k < 16 {
			partial++
		}
		// block8 on both halves, where fold would call it (two bytes of
		// this text's output before): stricter.
		x0, ok := block8(binary.LittleEndian.Uint64(src[0:]), d[w-2], d[w-1], detect, isAlnum(src[8]))
		ok = ok && w-base >= 2
		if ok {
			var x1 uint64
			if x1, ok = block8(binary.LittleEndian.Uint64(src[8:]), byte(x0>>48), byte(x0>>56), detect, isAlnum(src[16])); ok {
				if !got {
					t.Fatalf("round %d: block8 accepts both halves, plainPrefix does not", round)
				}
				if binary.LittleEndian.Uint64(d[w:]) != x0 || binary.LittleEndian.Uint64(d[w+8:]) != x1 {
					t.Fatalf("round %d: lower16 and block8 write other bytes", round)
				}
			}
		}
		if got {
			accepted++
			if !ok {
				rejectedLone++
			}
		}
	}
	if accepted < 1000 || rejectedLone < 100 || partial < 1000 {
		t.Errorf("%d blocks accepted, %d of them refused by block8, %d in part: the test checks little", accepted, rejectedLone, partial)
	}
}

// TestPlain64 checks lower64 and plainPrefix on 64 bytes against their definitions: each
// sixteen bytes, offsets and masks as lower16Ref has them (with the output
// bytes before it), and a block accepted when it is plain, has
// no space after whitespace and, with detect, nothing the byte path would
// mark for the compaction pass, looking back into earlier output.
func TestPlain64(t *testing.T) {
	if !haveLower16 {
		t.Skip("no lower64 on this architecture")
	}
	r := rand.New(rand.NewPCG(25, 26))
	const prev = "ab  .,'1\n9\xc3-"
	accepted, refused, partial := 0, 0, 0
	for round := range 100000 {
		var src []byte
		for range 4 {
			src = append(src, block16(r)[:16]...)
		}
		if round%3 == 0 { // mostly plain, so that many are accepted
			for k, c := range src {
				if c >= 0x80 || c < 0x20 || c >= '0' && c <= '9' || c == '@' || c > 0x7b || c >= 0x21 && c <= 0x24 {
					src[k] = 'e'
				}
			}
		}
		detect := r.IntN(4) != 0
		base := r.IntN(5) // up to w: a block at the very start of the text
		d := earlierOutput(r, prev, 64)
		w := 4
		var o [64]int32
		off := int32(r.IntN(1 << 20))
		bad, sp, letter, e, sep := lower64(&d[w], &o[0], &src[0], off, before(d, base, w))
		for c := range 4 {
			b := before(d, base, w+16*c)
			y, wo, wm := lower16Ref(src[16*c:], off+int32(16*c), byte(b), byte(b>>8))
			sh := uint(16 * c)
			got := masks{bad >> sh & 0xffff, sp >> sh & 0xffff, letter >> sh & 0xffff, e >> sh & 0xffff, sep >> sh & 0xffff}
			if [16]byte(d[w+16*c:]) != y || [16]int32(o[16*c:]) != wo || got != wm {
				t.Fatalf("round %d, sixteen %d: lower64 differs from the definition: bytes %v offsets %v masks %+v, want %+v", round, c,
					[16]byte(d[w+16*c:]) == y, [16]int32(o[16*c:]) == wo, got, wm)
			}
		}
		k := checkPrefix(t, round, [5]uint64{bad, sp, letter, e, sep}, d, base, w, 64, detect)
		got := k == 64
		switch {
		case got:
			accepted++
		case bad == 0:
			refused++
		}
		if k >= 16 && k < 64 {
			partial++
		}
	}
	if accepted < 1000 || refused < 1000 || partial < 1000 {
		t.Errorf("%d blocks accepted, %d plain ones refused, %d kept from the second sixteen on: the test checks little", accepted, refused, partial)
	}
}
