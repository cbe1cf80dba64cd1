package linear

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

// File format (little endian), optionally gzip-compressed as a whole:
//
//	magic   [8]byte "RAILIN2\n", "RAILIN3\n" with a word-vector term, or
//	        "RAILIN4\n" with a word-vector term and a phrase term
//	bits, minN, maxN, flags, normalization, long, prior uint8; 1 reserved
//	zero byte (prior: Features.Prior, 0 in files written before it)
//	categories uint32 (= 4)
//	bias       [4]float32
//	thresholds [4][4]float32 (veto, low, medium, high per category)
//	scale      [4]float32, a power of two per category
//	weights    [1<<bits][4]int8, row-major by bucket; weight = int8 × scale
//	RAILIN3 only, the word-vector term (VectorTerm):
//	  words  uint32, the table's word count
//	  dims   uint16, its dimensions
//	  pools  uint16 (= 3: bit 0 mean, bit 1 IDF-weighted mean)
//	  const  [4]float32
//	  mean   [4][dims]float32
//	  idf    [4][dims]float32
//	RAILIN4 only, then the phrase term (ConvTerm):
//	  width, filters uint16
//	  kernel [filters][width][dims]float32
//	  fbias  [filters]float32
//	  const  [4]float32
//	  out    [4][filters]float32
//	  absent [4]float32
//	  scale  [filters]float32
//	flags bit 3 only, the upper severities:
//	  high45 [4][2]float32 (High4, High5 per category)
//	crc        uint32, CRC-32 (IEEE) of everything above
//
// flags: bit 0 word unigrams, bit 1 word bigrams, bit 2 anchor crosses
// (Features.Cross), bit 3 thresholds of severity 4 and 5 follow the
// terms (Thresholds.High4, High5; a file without them loads with 0, no
// such level), bit 4 the request anchor class (Features.Request), bit 5 the length
// feature (Features.Length). A model without a vector
// term is written as RAILIN2, byte for byte what earlier versions wrote;
// both versions load.

var (
	magic   = [8]byte{'R', 'A', 'I', 'L', 'I', 'N', '2', '\n'}
	magicV3 = [8]byte{'R', 'A', 'I', 'L', 'I', 'N', '3', '\n'}
	magicV4 = [8]byte{'R', 'A', 'I', 'L', 'I', 'N', '4', '\n'}
)

// poolsMeanIDF is the pools field of a RAILIN3 file.
const poolsMeanIDF = 3

// vecHeaderSize is the size of a vector term's fixed part.
const vecHeaderSize = 4 + 2 + 2 + 4*N

// ErrFormat is wrapped by every error about a malformed model file.
var ErrFormat = errors.New("linear: malformed model")

// headerSize is the size of the fixed part before the weights.
const headerSize = 8 + 8 + 4 + 4*N + 4*4*N + 4*N

// maxFileSize bounds what Load reads (1<<24 buckets of four int8 and a
// vector term of 1024 dimensions).
const maxFileSize = headerSize + (1<<24)*N + vecHeaderSize + 2*N*1024*4 +
	4 + maxConvFilters*(maxConvWidth*1024+2+N)*4 + 2*N*4 + 2*N*4 + 4

func (p *Params) validate() error {
	f := p.Features
	if f.Bits < 12 || f.Bits > 24 {
		return fmt.Errorf("%w: bits %d out of [12, 24]", ErrFormat, f.Bits)
	}
	if f.MinN > f.MaxN || f.MaxN > 8 || (f.MinN == 0) != (f.MaxN == 0) {
		return fmt.Errorf("%w: character n-gram range [%d, %d]", ErrFormat, f.MinN, f.MaxN)
	}
	if p.Normalization >= numNorms {
		return fmt.Errorf("%w: unknown normalization %d", ErrFormat, p.Normalization)
	}
	if len(p.Weights) != 1<<f.Bits {
		return fmt.Errorf("%w: %d weight rows, want %d", ErrFormat, len(p.Weights), 1<<f.Bits)
	}
	for c := range N {
		if !finite(p.Bias[c]) {
			return fmt.Errorf("%w: bias %d not finite", ErrFormat, c)
		}
		t := p.Thresholds[c]
		if !(0 <= t.Veto && t.Veto <= t.Low && t.Low <= t.Medium && t.Medium <= t.High && t.High <= 1) {
			return fmt.Errorf("%w: thresholds of category %d not ordered in [0, 1]", ErrFormat, c)
		}
		if (t.High4 != 0 || t.High5 != 0) && !(t.High <= t.High4 && t.High4 <= t.High5 && t.High5 <= 1) {
			return fmt.Errorf("%w: severity 4 and 5 thresholds of category %d not ordered in [High, 1]", ErrFormat, c)
		}
	}
	for i := range p.Weights {
		for _, v := range p.Weights[i] {
			if !finite(v) {
				return fmt.Errorf("%w: weight row %d not finite", ErrFormat, i)
			}
		}
	}
	if p.Conv != nil && p.Vectors == nil {
		return fmt.Errorf("%w: a phrase term needs a vector term", ErrFormat)
	}
	if p.Vectors != nil {
		if err := p.Vectors.validate(); err != nil {
			return err
		}
	}
	if p.Conv != nil {
		return p.Conv.validate(p.Vectors.Dims)
	}
	return nil
}

func finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }

// Load reads a model file, gzip-compressed or not, and validates it.
func Load(r io.Reader) (*Model, error) {
	br := bufio.NewReader(r)
	var src io.Reader = br
	if head, err := br.Peek(2); err == nil && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
		defer zr.Close()
		src = zr
	}
	data, err := io.ReadAll(io.LimitReader(src, int64(maxFileSize)+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	p, err := decode(data)
	if err != nil {
		return nil, err
	}
	return New(p)
}

func decode(data []byte) (Params, error) {
	var p Params
	const fixed = headerSize
	if len(data) > maxFileSize || len(data) < fixed+4 {
		return p, fmt.Errorf("%w: size %d", ErrFormat, len(data))
	}
	v4 := bytes.Equal(data[:8], magicV4[:])
	v3 := v4 || bytes.Equal(data[:8], magicV3[:])
	if !v3 && !bytes.Equal(data[:8], magic[:]) {
		return p, fmt.Errorf("%w: bad magic", ErrFormat)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return p, fmt.Errorf("%w: checksum mismatch", ErrFormat)
	}
	h := data[8:16]
	p.Features = Features{Bits: h[0], MinN: h[1], MaxN: h[2], Words: h[3]&1 != 0, Bigrams: h[3]&2 != 0, Cross: h[3]&4 != 0, Request: h[3]&16 != 0, Length: h[3]&32 != 0, Long: h[5], Prior: h[6]}
	p.Normalization = Normalization(h[4])
	upper := h[3]&8 != 0
	if h[3]&^63 != 0 || h[7] != 0 {
		return p, fmt.Errorf("%w: reserved bits set", ErrFormat)
	}
	if p.Features.Bits < 12 || p.Features.Bits > 24 {
		return p, fmt.Errorf("%w: bits %d out of [12, 24]", ErrFormat, p.Features.Bits)
	}
	if binary.LittleEndian.Uint32(data[16:20]) != uint32(N) {
		return p, fmt.Errorf("%w: category count", ErrFormat)
	}
	rows := 1 << p.Features.Bits
	want := fixed + rows*N
	if v3 {
		if len(body) < want+vecHeaderSize {
			return p, fmt.Errorf("%w: size %d, want at least %d", ErrFormat, len(data), want+vecHeaderSize+4)
		}
		dims := int(binary.LittleEndian.Uint16(body[want+4:]))
		if pools := binary.LittleEndian.Uint16(body[want+6:]); pools != poolsMeanIDF {
			return p, fmt.Errorf("%w: vector pools %#x", ErrFormat, pools)
		}
		want += vecHeaderSize + 2*N*dims*4
		if v4 {
			if len(body) < want+4 {
				return p, fmt.Errorf("%w: size %d, want at least %d", ErrFormat, len(data), want+8)
			}
			width := int(binary.LittleEndian.Uint16(body[want:]))
			filters := int(binary.LittleEndian.Uint16(body[want+2:]))
			if width < 1 || width > maxConvWidth || filters < 1 || filters > maxConvFilters {
				return p, fmt.Errorf("%w: convolution of width %d with %d filters", ErrFormat, width, filters)
			}
			want += 4 + (filters*width*dims+filters+N+N*filters+N+filters)*4
		}
	}
	if upper {
		want += 2 * N * 4
	}
	if len(body) != want {
		return p, fmt.Errorf("%w: size %d, want %d", ErrFormat, len(data), want+4)
	}
	off := 20
	f32 := func() float32 {
		v := math.Float32frombits(binary.LittleEndian.Uint32(body[off:]))
		off += 4
		return v
	}
	for c := range N {
		p.Bias[c] = f32()
	}
	for c := range N {
		t := &p.Thresholds[c]
		t.Veto, t.Low, t.Medium, t.High = f32(), f32(), f32(), f32()
	}
	var scale [N]float32
	for c := range N {
		scale[c] = f32()
		if !(scale[c] > 0) || !finite(scale[c]) {
			return p, fmt.Errorf("%w: scale %d not positive", ErrFormat, c)
		}
	}
	p.Weights = make([][N]float32, rows)
	q := body[off:]
	for i := range p.Weights {
		for c := range N {
			p.Weights[i][c] = float32(int8(q[i*N+c])) * scale[c]
		}
	}
	off += rows * N
	if v3 {
		v := &VectorTerm{Words: int(binary.LittleEndian.Uint32(body[off:])), Dims: int(binary.LittleEndian.Uint16(body[off+4:]))}
		off += 8
		for c := range N {
			v.Const[c] = f32()
		}
		for _, dst := range []*[N][]float32{&v.Mean, &v.IDF} {
			for c := range N {
				dst[c] = make([]float32, v.Dims)
				for i := range dst[c] {
					dst[c][i] = f32()
				}
			}
		}
		p.Vectors = v
	}
	if v4 {
		t := &ConvTerm{Width: int(binary.LittleEndian.Uint16(body[off:])), Filters: int(binary.LittleEndian.Uint16(body[off+2:]))}
		off += 4
		floats := func(n int) []float32 {
			out := make([]float32, n)
			for i := range out {
				out[i] = f32()
			}
			return out
		}
		t.Kernel = floats(t.Filters * t.Width * p.Vectors.Dims)
		t.FBias = floats(t.Filters)
		for c := range N {
			t.Const[c] = f32()
		}
		for c := range N {
			t.Out[c] = floats(t.Filters)
		}
		for c := range N {
			t.Absent[c] = f32()
		}
		t.Scale = floats(t.Filters)
		p.Conv = t
	}
	if upper {
		for c := range N {
			t := &p.Thresholds[c]
			t.High4, t.High5 = f32(), f32()
		}
	}
	return p, nil
}

// Encode returns the uncompressed model file of p.
func (p *Params) Encode() ([]byte, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	f := p.Features
	var flags byte
	if f.Words {
		flags |= 1
	}
	if f.Bigrams {
		flags |= 2
	}
	if f.Cross {
		flags |= 4
	}
	if f.Request {
		flags |= 16
	}
	if f.Length {
		flags |= 32
	}
	upper := false
	for _, t := range p.Thresholds {
		upper = upper || t.High4 != 0 || t.High5 != 0
	}
	if upper {
		flags |= 8
	}
	scale, q := quantize(p.Weights)
	out := make([]byte, 0, headerSize+len(q)*N+4)
	switch {
	case p.Conv != nil:
		out = append(out, magicV4[:]...)
	case p.Vectors != nil:
		out = append(out, magicV3[:]...)
	default:
		out = append(out, magic[:]...)
	}
	out = append(out, f.Bits, f.MinN, f.MaxN, flags, byte(p.Normalization), f.Long, f.Prior, 0)
	out = binary.LittleEndian.AppendUint32(out, uint32(N))
	put := func(v float32) { out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v)) }
	for c := range N {
		put(p.Bias[c])
	}
	for c := range N {
		t := p.Thresholds[c]
		put(t.Veto)
		put(t.Low)
		put(t.Medium)
		put(t.High)
	}
	for c := range N {
		put(scale[c])
	}
	for i := range q {
		for c := range N {
			out = append(out, byte(q[i][c]))
		}
	}
	if v := p.Vectors; v != nil {
		out = binary.LittleEndian.AppendUint32(out, uint32(v.Words))
		out = binary.LittleEndian.AppendUint16(out, uint16(v.Dims))
		out = binary.LittleEndian.AppendUint16(out, poolsMeanIDF)
		for c := range N {
			put(v.Const[c])
		}
		for _, src := range [][N][]float32{v.Mean, v.IDF} {
			for c := range N {
				for _, x := range src[c] {
					put(x)
				}
			}
		}
	}
	if t := p.Conv; t != nil {
		out = binary.LittleEndian.AppendUint16(out, uint16(t.Width))
		out = binary.LittleEndian.AppendUint16(out, uint16(t.Filters))
		for _, xs := range [][]float32{t.Kernel, t.FBias, t.Const[:], t.Out[0], t.Out[1], t.Out[2], t.Out[3], t.Absent[:], t.Scale} {
			for _, x := range xs {
				put(x)
			}
		}
	}
	if upper {
		for _, t := range p.Thresholds {
			put(t.High4)
			put(t.High5)
		}
	}
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out)), nil
}

// quantize maps float weights to int8 with one power-of-two scale per
// category: the smallest power of two s with max|w| ≤ 127·s, and
// q = round(w/s). Quantizing weights that are already int8 × s gives them
// back unchanged, so a loaded model re-encodes to the same bytes.
func quantize(w [][N]float32) (scale [N]float32, q [][N]int8) {
	for c := range N {
		var maxAbs float64
		for i := range w {
			maxAbs = max(maxAbs, math.Abs(float64(w[i][c])))
		}
		s := 1.0
		if maxAbs > 0 {
			_, e := math.Frexp(maxAbs / 127)
			s = math.Ldexp(1, e)
			for maxAbs <= 127*s/2 {
				s /= 2
			}
			for maxAbs > 127*s {
				s *= 2
			}
		}
		scale[c] = float32(s)
	}
	q = make([][N]int8, len(w))
	for i := range w {
		for c := range N {
			v := math.Round(float64(w[i][c]) / float64(scale[c]))
			q[i][c] = int8(min(max(v, -127), 127))
		}
	}
	return scale, q
}

// WriteTo writes the model file of m, gzip-compressed at the best level.
// The output depends only on the parameters (no timestamps), so equal
// models give equal bytes.
func (m *Model) WriteTo(w io.Writer) (int64, error) {
	raw, err := m.p.Encode()
	if err != nil {
		return 0, err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return 0, err
	}
	if _, err := zw.Write(raw); err != nil {
		return 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	n, err := w.Write(buf.Bytes())
	return int64(n), err
}
