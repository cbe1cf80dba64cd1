package vectors

import (
	"bytes"
	"errors"
	"hash/maphash"
	"math/bits"
)

// Table is a vocabulary of words with one quantized vector each. Ids are
// 0..Len()-1 in frequency order (id 0 is the most frequent word kept); the
// methods that take an id panic on one outside that range, like a slice
// index. A Table is immutable after Build or Load and safe for concurrent
// use.
type Table struct {
	dims  int
	words []byte   // count × (uint8 length, bytes)
	off   []uint32 // off[id]: index of the word's length byte in words
	rank  []uint32 // 1-based source rank, strictly increasing
	scale []float32
	vec   []int8 // count × dims

	seed  maphash.Seed
	slots []uint64 // open addressing, linear probing: hash>>32 << 32 | id+1; 0 is empty
}

// index builds the word hash table; its load factor is at most 1/2.
func (t *Table) index() error {
	n := len(t.off)
	t.seed = maphash.MakeSeed()
	size := 1 << bits.Len(uint(2*n)) // > 2n, a power of two
	t.slots = make([]uint64, size)
	mask := uint64(size - 1)
	for id := range n {
		w := t.word(int32(id))
		h := maphash.Bytes(t.seed, w)
		i := h & mask
		for ; t.slots[i] != 0; i = (i + 1) & mask {
			e := t.slots[i]
			if uint32(e>>32) == uint32(h>>32) && bytes.Equal(t.word(int32(uint32(e))-1), w) {
				return errDuplicate
			}
		}
		t.slots[i] = h>>32<<32 | uint64(id+1)
	}
	return nil
}

var errDuplicate = errors.New("duplicate word")

func (t *Table) word(id int32) []byte {
	o := t.off[id]
	return t.words[o+1 : o+1+uint32(t.words[o])]
}

// Lookup returns the id of word, which must match a vocabulary entry byte
// for byte: the shipped vocabulary is lowercase ASCII, so callers lowercase
// (or normalize) first. It does not allocate.
func (t *Table) Lookup(word []byte) (id int32, ok bool) {
	if len(word) == 0 || len(word) > 255 {
		return -1, false
	}
	h := maphash.Bytes(t.seed, word)
	tag := uint32(h >> 32)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := t.slots[i]
		if e == 0 {
			return -1, false
		}
		if uint32(e>>32) == tag {
			id := int32(uint32(e)) - 1
			o := t.off[id]
			if int(t.words[o]) == len(word) && string(t.words[o+1:o+1+uint32(len(word))]) == string(word) {
				return id, true
			}
		}
	}
}

// Known reports whether word is in the vocabulary (Lookup finds it): a
// dictionary of the language's words, as lexicon.WithDictionary takes.
func (t *Table) Known(word []byte) bool {
	_, ok := t.Lookup(word)
	return ok
}

// Len returns the number of words.
func (t *Table) Len() int { return len(t.off) }

// Dims returns the number of dimensions of every vector.
func (t *Table) Dims() int { return t.dims }

// Word returns the word of id. The slice aliases the table: do not modify it.
func (t *Table) Word(id int32) []byte { return t.word(id) }

// Vector returns the quantized vector of id (Dims numbers); the real vector
// is Vector(id)[i] × Scale(id). The slice aliases the table: do not modify it.
func (t *Table) Vector(id int32) []int8 {
	return t.vec[int(id)*t.dims : (int(id)+1)*t.dims : (int(id)+1)*t.dims]
}

// Scale returns the factor that turns Vector(id) into real numbers.
func (t *Table) Scale(id int32) float32 { return t.scale[id] }

// Rank returns the 1-based position of id's word in the source file, whose
// order is descending corpus frequency (GloVe writes its vocabulary sorted
// by count). Ranks increase with id but have gaps where the source's words
// were not kept. By Zipf's law a word's frequency is roughly proportional to
// 1/rank, so log(Rank(id)) is, up to a constant, its -log probability: an
// IDF proxy for weighting pooled vectors, for example
// w = log(1 + Rank(id)/k) with k near the rank where stop words end.
func (t *Table) Rank(id int32) int { return int(t.rank[id]) }

// AddTo adds weight × the real vector of id to dst (len(dst) must be at least
// Dims): a helper for pooling a sum or a weighted mean.
func (t *Table) AddTo(dst []float32, id int32, weight float32) {
	v := t.Vector(id)
	dst = dst[:len(v)]
	s := weight * t.scale[id]
	for i, q := range v {
		dst[i] += float32(q) * s
	}
}
