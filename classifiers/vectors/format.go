package vectors

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unsafe"
)

// File format: one gzip stream whose content is, little endian,
//
//	magic     [8]byte "RAIWVEC\n"
//	version   uint32 (= 1)
//	dims      uint32, numbers per vector (1..4096)
//	count     uint32, words (at most 1<<24)
//	wordBytes uint32, size of the word block
//	words     count × (uint8 length, length bytes), in id order
//	ranks     count × uvarint, rank[id] - rank[id-1] (rank[-1] = 0); ranks are
//	          1-based positions in the source file and strictly increase with id
//	scales    count × float32, one per vector
//	vectors   count × dims × int8, row-major by id; number ≈ int8 × scale
//
// Words are non-empty, at most 255 bytes and distinct. The gzip trailer's
// CRC-32 covers the content.

var magic = [8]byte{'R', 'A', 'I', 'W', 'V', 'E', 'C', '\n'}

// Version is the format version that Load reads and WriteTo writes.
const Version = 1

const (
	maxDims  = 4096
	maxCount = 1 << 22 // words
	maxCells = 1 << 30 // count × dims
	// chunk bounds what Load allocates for a block before the stream has
	// shown that much of it (see readBytes); the shipped table's vectors
	// (15 MB) fit in one.
	chunk = 1 << 24
)

// ErrFormat is wrapped by every error about a malformed vector file.
var ErrFormat = errors.New("vectors: malformed file")

// Entry is one word and its vector, as given to Build.
type Entry struct {
	Word   string
	Rank   int       // 1-based position in the source's frequency order
	Vector []float32 // Dims numbers
}

// Build quantizes entries into a Table: each vector becomes int8 numbers in
// [-levels, levels] (levels in 1..127) with one float32 scale,
// max|x|/levels, so that every number is within scale/2 of its original.
// Fewer levels compress better (the shipped table uses 31). Entries are
// ordered by Rank (ids follow that order); ranks and words must be distinct.
func Build(dims, levels int, entries []Entry) (*Table, error) {
	if dims < 1 || dims > maxDims || len(entries) > maxCount || len(entries)*dims > maxCells {
		return nil, fmt.Errorf("vectors: build: %d entries of %d dims out of range", len(entries), dims)
	}
	if levels < 1 || levels > 127 {
		return nil, fmt.Errorf("vectors: build: levels %d out of [1, 127]", levels)
	}
	es := slices.Clone(entries)
	slices.SortFunc(es, func(a, b Entry) int { return a.Rank - b.Rank })
	t := &Table{
		dims:  dims,
		off:   make([]uint32, len(es)),
		rank:  make([]uint32, len(es)),
		scale: make([]float32, len(es)),
		vec:   make([]int8, len(es)*dims),
	}
	var words strings.Builder
	prev := 0
	for i, e := range es {
		switch {
		case e.Rank <= prev || e.Rank > math.MaxUint32:
			return nil, fmt.Errorf("vectors: build: entry %d: rank %d not above %d", i, e.Rank, prev)
		case len(e.Word) == 0 || len(e.Word) > 255:
			return nil, fmt.Errorf("vectors: build: entry %d: word of %d bytes", i, len(e.Word))
		case len(e.Vector) != dims:
			return nil, fmt.Errorf("vectors: build: entry %d: %d numbers, want %d", i, len(e.Vector), dims)
		}
		prev = e.Rank
		t.off[i] = uint32(words.Len())
		words.WriteByte(byte(len(e.Word)))
		words.WriteString(e.Word)
		t.rank[i] = uint32(e.Rank)
		s, ok := quantize(t.vec[i*dims:(i+1)*dims], e.Vector, levels)
		if !ok {
			return nil, fmt.Errorf("vectors: build: entry %d: number not finite", i)
		}
		t.scale[i] = s
	}
	t.words = []byte(words.String())
	if err := t.index(); err != nil {
		return nil, fmt.Errorf("vectors: build: %w", err)
	}
	return t, nil
}

// quantize writes v as int8 in [-levels, levels] into dst and returns the
// scale: v[i] ≈ dst[i]×scale.
func quantize(dst []int8, v []float32, levels int) (scale float32, ok bool) {
	var m float64
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return 0, false
		}
		m = max(m, math.Abs(float64(x)))
	}
	if m == 0 {
		clear(dst)
		return 0, true
	}
	s := m / float64(levels)
	for i, x := range v {
		q := math.Round(float64(x) / s)
		dst[i] = int8(max(-float64(levels), min(float64(levels), q)))
	}
	return float32(s), true
}

// WriteTo writes the table in the file format above (gzip, best compression).
// The output depends only on the table's content.
func (t *Table) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	zw, err := gzip.NewWriterLevel(cw, gzip.BestCompression)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(zw, 1<<16)
	var hdr [24]byte
	copy(hdr[:8], magic[:])
	binary.LittleEndian.PutUint32(hdr[8:], Version)
	binary.LittleEndian.PutUint32(hdr[12:], uint32(t.dims))
	binary.LittleEndian.PutUint32(hdr[16:], uint32(t.Len()))
	binary.LittleEndian.PutUint32(hdr[20:], uint32(len(t.words)))
	bw.Write(hdr[:])
	bw.Write(t.words)
	var buf [binary.MaxVarintLen64]byte
	prev := uint32(0)
	for _, r := range t.rank {
		bw.Write(buf[:binary.PutUvarint(buf[:], uint64(r-prev))])
		prev = r
	}
	for _, s := range t.scale {
		bw.Write(binary.LittleEndian.AppendUint32(buf[:0], math.Float32bits(s)))
	}
	bw.Write(int8Bytes(t.vec))
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	err = zw.Close()
	return cw.n, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// int8Bytes views s as bytes (same size, no copy).
func int8Bytes(s []int8) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s))
}

// Load reads a table in the file format above and builds its word index.
// Sizes are checked before anything is allocated for them.
func Load(r io.Reader) (*Table, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	defer zr.Close()
	zr.Multistream(false)
	br := bufio.NewReaderSize(zr, 1<<16)
	t, err := decode(br)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%w: truncated", ErrFormat)
		}
		if errors.Is(err, ErrFormat) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	// Read to the end of the stream so that gzip checks its CRC-32.
	if n, err := io.Copy(io.Discard, br); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	} else if n != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the vectors", ErrFormat, n)
	}
	return t, nil
}

func decode(br *bufio.Reader) (*Table, error) {
	var hdr [24]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return nil, err
	}
	if [8]byte(hdr[:8]) != magic {
		return nil, fmt.Errorf("%w: bad magic", ErrFormat)
	}
	if v := binary.LittleEndian.Uint32(hdr[8:]); v != Version {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrFormat, v, Version)
	}
	dims := int(binary.LittleEndian.Uint32(hdr[12:]))
	count := int(binary.LittleEndian.Uint32(hdr[16:]))
	wordBytes := int(binary.LittleEndian.Uint32(hdr[20:]))
	if dims < 1 || dims > maxDims || count > maxCount || count*dims > maxCells {
		return nil, fmt.Errorf("%w: %d words of %d dims out of range", ErrFormat, count, dims)
	}
	if wordBytes < 2*count || wordBytes > 256*count {
		return nil, fmt.Errorf("%w: word block of %d bytes for %d words", ErrFormat, wordBytes, count)
	}
	t := &Table{dims: dims}
	var err error
	if t.words, err = readBytes(br, wordBytes); err != nil {
		return nil, err
	}
	t.off = make([]uint32, count)
	p := 0
	for i := range count {
		if p >= wordBytes {
			return nil, fmt.Errorf("%w: word block ends at word %d", ErrFormat, i)
		}
		n := int(t.words[p])
		if n == 0 || p+1+n > wordBytes {
			return nil, fmt.Errorf("%w: word %d: bad length", ErrFormat, i)
		}
		t.off[i] = uint32(p)
		p += 1 + n
	}
	if p != wordBytes {
		return nil, fmt.Errorf("%w: %d bytes after the last word", ErrFormat, wordBytes-p)
	}
	t.rank = make([]uint32, count)
	prev := uint64(0)
	for i := range count {
		d, err := binary.ReadUvarint(br)
		if err != nil {
			return nil, err
		}
		if d == 0 || prev+d > math.MaxUint32 {
			return nil, fmt.Errorf("%w: rank of word %d", ErrFormat, i)
		}
		prev += d
		t.rank[i] = uint32(prev)
	}
	sb, err := readBytes(br, 4*count)
	if err != nil {
		return nil, err
	}
	t.scale = make([]float32, count)
	for i := range t.scale {
		s := math.Float32frombits(binary.LittleEndian.Uint32(sb[4*i:]))
		if !(s >= 0) || math.IsInf(float64(s), 0) {
			return nil, fmt.Errorf("%w: scale of word %d", ErrFormat, i)
		}
		t.scale[i] = s
	}
	vb, err := readBytes(br, count*dims)
	if err != nil {
		return nil, err
	}
	if len(vb) > 0 {
		t.vec = unsafe.Slice((*int8)(unsafe.Pointer(&vb[0])), len(vb))
	}
	if err := t.index(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return t, nil
}

// readBytes reads n bytes. Past chunk bytes it allocates all n only once
// the stream has given chunk bytes, so that a header claiming a huge block
// in a short stream costs at most chunk bytes.
func readBytes(r io.Reader, n int) ([]byte, error) {
	b := make([]byte, min(n, chunk))
	if _, err := io.ReadFull(r, b); err != nil || n <= chunk {
		return b, err
	}
	full := make([]byte, n)
	copy(full, b)
	_, err := io.ReadFull(r, full[chunk:])
	return full, err
}
