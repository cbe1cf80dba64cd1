package vectors_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"flag"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers/vectors"
)

var update = flag.Bool("update", false, "rewrite testdata/tiny.bin.gz")

// tinyEntries is a made-up vocabulary of six words in four dimensions,
// given out of rank order on purpose.
func tinyEntries() []vectors.Entry {
	return []vectors.Entry{
		{Word: "bravo", Rank: 4, Vector: []float32{0.5, -0.25, 0, 1}},
		{Word: "alpha", Rank: 1, Vector: []float32{1, 0, 0, 0}},
		{Word: "charlie", Rank: 9, Vector: []float32{-2, 1.5, 0.125, -0.75}},
		{Word: "delta-echo", Rank: 10, Vector: []float32{0, 0, 0, 0}},
		{Word: "fox's", Rank: 11, Vector: []float32{0.001, -0.002, 0.003, 3}},
		{Word: "golf", Rank: 200, Vector: []float32{-1, -1, 1, 1}},
	}
}

func buildTiny(t testing.TB) *vectors.Table {
	t.Helper()
	tb, err := vectors.Build(4, 31, tinyEntries())
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func encode(t testing.TB, tb *vectors.Table) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := tb.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo reported %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

// checkTiny compares a table with tinyEntries: order by rank, words, ranks,
// and every number within half a step of its original.
func checkTiny(t *testing.T, tb *vectors.Table) {
	t.Helper()
	want := []string{"alpha", "bravo", "charlie", "delta-echo", "fox's", "golf"}
	if tb.Len() != len(want) || tb.Dims() != 4 {
		t.Fatalf("Len %d Dims %d, want %d 4", tb.Len(), tb.Dims(), len(want))
	}
	byWord := map[string]vectors.Entry{}
	for _, e := range tinyEntries() {
		byWord[e.Word] = e
	}
	for id, w := range want {
		id := int32(id)
		if got := string(tb.Word(id)); got != w {
			t.Fatalf("Word(%d) = %q, want %q", id, got, w)
		}
		e := byWord[w]
		if tb.Rank(id) != e.Rank {
			t.Errorf("Rank(%d) = %d, want %d", id, tb.Rank(id), e.Rank)
		}
		s := float64(tb.Scale(id))
		for i, q := range tb.Vector(id) {
			if q < -31 || q > 31 {
				t.Errorf("%s[%d] = %d outside [-31, 31]", w, i, q)
			}
			if d := math.Abs(float64(q)*s - float64(e.Vector[i])); d > s/2*1.0001 {
				t.Errorf("%s[%d]: %v off by %v, more than half a step %v", w, i, e.Vector[i], d, s/2)
			}
		}
	}
}

func TestBuildWriteLoadRoundTrip(t *testing.T) {
	tb := buildTiny(t)
	checkTiny(t, tb)
	b := encode(t, tb)
	back, err := vectors.Load(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	checkTiny(t, back)
	for id := range int32(tb.Len()) {
		if tb.Scale(id) != back.Scale(id) || !bytes.Equal(int8s(tb.Vector(id)), int8s(back.Vector(id))) {
			t.Errorf("id %d: vector differs after the round trip", id)
		}
	}
	if again := encode(t, back); !bytes.Equal(again, b) {
		t.Error("writing the loaded table gives other bytes")
	}
}

// TestTinyFileGolden pins the file format: the committed
// testdata/tiny.bin.gz must load as tinyEntries, and building them must
// write the same bytes (-update rewrites it).
func TestTinyFileGolden(t *testing.T) {
	b := encode(t, buildTiny(t))
	if *update {
		if err := os.WriteFile("testdata/tiny.bin.gz", b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.ReadFile("testdata/tiny.bin.gz")
	if err != nil {
		t.Fatal(err)
	}
	tb, err := vectors.Load(bytes.NewReader(f))
	if err != nil {
		t.Fatal(err)
	}
	checkTiny(t, tb)
	raw := gunzip(t, f)
	if !bytes.HasPrefix(raw, []byte("RAIWVEC\n")) || binary.LittleEndian.Uint32(raw[8:]) != vectors.Version ||
		binary.LittleEndian.Uint32(raw[12:]) != 4 || binary.LittleEndian.Uint32(raw[16:]) != 6 {
		t.Error("header is not magic, version, dims 4, count 6")
	}
	if !bytes.Equal(raw, gunzip(t, b)) {
		t.Error("testdata/tiny.bin.gz differs from what Build writes: run go test -run TestTinyFileGolden -update")
	}
}

func TestLookup(t *testing.T) {
	tb := buildTiny(t)
	for _, c := range []struct {
		word string
		id   int32
		ok   bool
	}{
		{"alpha", 0, true},
		{"bravo", 1, true},
		{"golf", 5, true},
		{"delta-echo", 3, true},
		{"fox's", 4, true},
		{"Alpha", -1, false},
		{"alph", -1, false},
		{"alphaa", -1, false},
		{"delta", -1, false},
		{"", -1, false},
		{strings.Repeat("a", 300), -1, false},
	} {
		id, ok := tb.Lookup([]byte(c.word))
		if id != c.id || ok != c.ok {
			t.Errorf("Lookup(%.12q) = %d, %v; want %d, %v", c.word, id, ok, c.id, c.ok)
		}
	}
}

func TestLookupDoesNotAllocate(t *testing.T) {
	tb := buildTiny(t)
	hit, miss := []byte("charlie"), []byte("hotel")
	if n := testing.AllocsPerRun(100, func() {
		tb.Lookup(hit)
		tb.Lookup(miss)
	}); n != 0 {
		t.Errorf("Lookup allocates %v times a call", n)
	}
}

func TestEmptyTable(t *testing.T) {
	tb, err := vectors.Build(3, 127, nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := vectors.Load(bytes.NewReader(encode(t, tb)))
	if err != nil {
		t.Fatal(err)
	}
	if back.Len() != 0 || back.Dims() != 3 {
		t.Fatalf("Len %d Dims %d", back.Len(), back.Dims())
	}
	if _, ok := back.Lookup([]byte("alpha")); ok {
		t.Error("empty table finds a word")
	}
}

func TestBuildRejects(t *testing.T) {
	v := []float32{1, 2}
	for _, c := range []struct {
		name   string
		dims   int
		levels int
		es     []vectors.Entry
	}{
		{"duplicate word", 2, 31, []vectors.Entry{{"alpha", 1, v}, {"alpha", 2, v}}},
		{"duplicate rank", 2, 31, []vectors.Entry{{"alpha", 1, v}, {"bravo", 1, v}}},
		{"rank zero", 2, 31, []vectors.Entry{{"alpha", 0, v}}},
		{"empty word", 2, 31, []vectors.Entry{{"", 1, v}}},
		{"long word", 2, 31, []vectors.Entry{{strings.Repeat("a", 256), 1, v}}},
		{"wrong dims", 3, 31, []vectors.Entry{{"alpha", 1, v}}},
		{"not finite", 2, 31, []vectors.Entry{{"alpha", 1, []float32{float32(math.NaN()), 0}}}},
		{"zero dims", 0, 31, nil},
		{"levels zero", 2, 0, nil},
		{"levels 128", 2, 128, nil},
	} {
		if _, err := vectors.Build(c.dims, c.levels, c.es); err == nil {
			t.Errorf("%s: Build succeeded", c.name)
		}
	}
}

func TestLoadRejects(t *testing.T) {
	raw := gunzip(t, encode(t, buildTiny(t)))
	cases := map[string][]byte{
		"bad magic":     append([]byte("RAIWVEX\n"), raw[8:]...),
		"trailing data": append(bytes.Clone(raw), 0),
		"version 2":     func() []byte { b := bytes.Clone(raw); b[8] = 2; return b }(),
		"huge count":    func() []byte { b := bytes.Clone(raw); binary.LittleEndian.PutUint32(b[16:], 1<<30); return b }(),
		"zero rank delta": func() []byte {
			b := bytes.Clone(raw)
			wb := binary.LittleEndian.Uint32(b[20:])
			b[24+wb] = 0
			return b
		}(),
	}
	for n := range len(raw) {
		if _, err := vectors.Load(bytes.NewReader(gz(t, raw[:n]))); !errors.Is(err, vectors.ErrFormat) {
			t.Fatalf("cut at %d: %v, want ErrFormat", n, err)
		}
	}
	for name, b := range cases {
		if _, err := vectors.Load(bytes.NewReader(gz(t, b))); !errors.Is(err, vectors.ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
	if _, err := vectors.Load(bytes.NewReader(raw)); !errors.Is(err, vectors.ErrFormat) {
		t.Errorf("not gzip: %v, want ErrFormat", err)
	}
	c := encode(t, buildTiny(t))
	c[len(c)-6] ^= 1 // in the gzip trailer's CRC-32
	if _, err := vectors.Load(bytes.NewReader(c)); !errors.Is(err, vectors.ErrFormat) {
		t.Errorf("bad CRC: %v, want ErrFormat", err)
	}
}

func TestAddTo(t *testing.T) {
	tb := buildTiny(t)
	id, _ := tb.Lookup([]byte("charlie"))
	dst := make([]float32, 4)
	tb.AddTo(dst, id, 2)
	tb.AddTo(dst, id, -1)
	s := tb.Scale(id)
	for i, q := range tb.Vector(id) {
		if math.Abs(float64(dst[i]-float32(q)*s)) > 1e-6 {
			t.Errorf("dst[%d] = %v, want %v", i, dst[i], float32(q)*s)
		}
	}
}

func FuzzLoad(f *testing.F) {
	f.Add(gunzip(f, encode(f, buildTiny(f))))
	f.Add([]byte("RAIWVEC\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		tb, err := vectors.Load(bytes.NewReader(gz(t, raw)))
		if err != nil {
			if !errors.Is(err, vectors.ErrFormat) {
				t.Fatalf("error does not wrap ErrFormat: %v", err)
			}
			return
		}
		for id := range int32(tb.Len()) {
			if got, ok := tb.Lookup(tb.Word(id)); !ok || got != id {
				t.Fatalf("Lookup(Word(%d)) = %d, %v", id, got, ok)
			}
			if len(tb.Vector(id)) != tb.Dims() {
				t.Fatalf("Vector(%d) has %d numbers", id, len(tb.Vector(id)))
			}
			if id > 0 && tb.Rank(id) <= tb.Rank(id-1) {
				t.Fatalf("ranks not increasing at %d", id)
			}
		}
	})
}

func int8s(v []int8) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}

func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestLoadShortStreamClaimingHugeBlocks: a header that claims a 1 GiB word
// block in a stream of a few bytes fails without allocating the block.
func TestLoadShortStreamClaimingHugeBlocks(t *testing.T) {
	raw := make([]byte, 24, 64)
	copy(raw, "RAIWVEC\n")
	binary.LittleEndian.PutUint32(raw[8:], vectors.Version)
	binary.LittleEndian.PutUint32(raw[12:], 100)
	binary.LittleEndian.PutUint32(raw[16:], 1<<22)
	binary.LittleEndian.PutUint32(raw[20:], 1<<30)
	raw = append(raw, "\x05alpha"...)
	in := gz(t, raw)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := vectors.Load(bytes.NewReader(in))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, vectors.ErrFormat) {
		t.Fatalf("%v, want ErrFormat", err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 64<<20 {
		t.Errorf("allocated %d MB for a %d-byte stream", d>>20, len(in))
	}
}
