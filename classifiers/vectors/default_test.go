package vectors_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/openrai/raiserver/classifiers/vectors"
)

func loadDefault(t testing.TB) *vectors.Table {
	t.Helper()
	tb, err := vectors.Default()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestShippedTableMatchesManifest: data/glove100.bin.gz is the file that
// data/MANIFEST.json describes (both come from one rai-vectors run).
func TestShippedTableMatchesManifest(t *testing.T) {
	b, err := os.ReadFile("data/MANIFEST.json")
	if err != nil {
		t.Fatal(err)
	}
	var man struct {
		Output struct {
			SHA256 string `json:"sha256"`
			Bytes  int    `json:"bytes"`
			Words  int    `json:"words"`
			Dims   int    `json:"dims"`
		} `json:"output"`
	}
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	f, err := os.ReadFile("data/glove100.bin.gz")
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(f); hex.EncodeToString(sum[:]) != man.Output.SHA256 || len(f) != man.Output.Bytes {
		t.Fatal("data/glove100.bin.gz does not match data/MANIFEST.json: commit both from one `go run ./cmd/rai-vectors` run")
	}
	if len(f) > 16<<20 {
		t.Errorf("shipped table is %d bytes, over the 16 MiB budget", len(f))
	}
	tb := loadDefault(t)
	if tb.Len() != man.Output.Words || tb.Dims() != man.Output.Dims {
		t.Errorf("Default has %d words of %d dims, manifest says %d of %d", tb.Len(), tb.Dims(), man.Output.Words, man.Output.Dims)
	}
}

func TestDefaultFrequencyOrder(t *testing.T) {
	tb := loadDefault(t)
	if id, ok := tb.Lookup([]byte("the")); !ok || id != 0 || tb.Rank(id) != 1 {
		t.Fatalf("the: id %d ok %v rank %d; want id 0, rank 1", id, ok, tb.Rank(id))
	}
	for id := int32(1); id < int32(tb.Len()); id++ {
		if tb.Rank(id) <= tb.Rank(id-1) {
			t.Fatalf("rank of id %d not above the one before", id)
		}
	}
	// A common word ranks before a rarer one.
	common, _ := tb.Lookup([]byte("house"))
	rare, ok := tb.Lookup([]byte("lighthouse"))
	if !ok || tb.Rank(common) >= tb.Rank(rare) {
		t.Errorf("rank of a common word %d, of a rarer one %d", tb.Rank(common), tb.Rank(rare))
	}
	for _, w := range []string{"The", ",", "1990", "" /* not a word */} {
		if _, ok := tb.Lookup([]byte(w)); ok {
			t.Errorf("word %q should not be in the table", w)
		}
	}
}

func cosine(tb *vectors.Table, a, b int32) float64 {
	va, vb := tb.Vector(a), tb.Vector(b)
	var ab, aa, bb float64
	for i := range va {
		ab += float64(va[i]) * float64(vb[i])
		aa += float64(va[i]) * float64(va[i])
		bb += float64(vb[i]) * float64(vb[i])
	}
	return ab / math.Sqrt(aa*bb)
}

func mustLookup(t *testing.T, tb *vectors.Table, w string) int32 {
	t.Helper()
	id, ok := tb.Lookup([]byte(w))
	if !ok {
		t.Fatalf("word %q not in the table", w)
	}
	return id
}

// TestDefaultSimilarity: words of related meaning are closer than
// unrelated ones, and a word's nearest neighbours make sense.
func TestDefaultSimilarity(t *testing.T) {
	tb := loadDefault(t)
	for _, c := range [][3]string{
		{"kill", "murder", "banana"},
		{"attack", "assault", "violin"},
		{"hate", "despise", "umbrella"},
		{"king", "queen", "carrot"},
		{"happy", "glad", "concrete"},
		{"suicide", "overdose", "orchestra"},
	} {
		w, near, far := mustLookup(t, tb, c[0]), mustLookup(t, tb, c[1]), mustLookup(t, tb, c[2])
		if cn, cf := cosine(tb, w, near), cosine(tb, w, far); cn <= cf+0.2 {
			t.Errorf("cosine(%s, %s) = %.3f not well above cosine(%s, %s) = %.3f", c[0], c[1], cn, c[0], c[2], cf)
		}
	}
	// The ten nearest neighbours of "monday" include "tuesday".
	id := mustLookup(t, tb, "monday")
	type nb struct {
		id int32
		c  float64
	}
	var top []nb
	for o := int32(0); o < int32(tb.Len()); o++ {
		if o == id {
			continue
		}
		top = append(top, nb{o, cosine(tb, id, o)})
		if len(top) > 50 {
			slices.SortFunc(top, func(a, b nb) int { return -cmpFloat(a.c, b.c) })
			top = top[:10]
		}
	}
	slices.SortFunc(top, func(a, b nb) int { return -cmpFloat(a.c, b.c) })
	var names []string
	for _, n := range top[:10] {
		names = append(names, string(tb.Word(n.id)))
	}
	if !slices.Contains(names, "tuesday") {
		t.Errorf("nearest neighbours of monday: %v", names)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestDefaultLookupDoesNotAllocate(t *testing.T) {
	tb := loadDefault(t)
	words := [][]byte{[]byte("the"), []byte("weather"), []byte("notawordxyz"), []byte("well-known")}
	if n := testing.AllocsPerRun(100, func() {
		for _, w := range words {
			tb.Lookup(w)
		}
	}); n != 0 {
		t.Errorf("Lookup allocates %v times a call", n)
	}
}

// TestReportRSS logs how much the default table adds to the resident set.
// It asserts nothing; run it alone, in a fresh process:
//
//	VECTORS_RSS=1 go test ./classifiers/vectors -run TestReportRSS -v -count=1
func TestReportRSS(t *testing.T) {
	if os.Getenv("VECTORS_RSS") == "" {
		t.Skip("set VECTORS_RSS=1 to measure")
	}
	runtime.GC()
	before := rss(t)
	tb := loadDefault(t)
	runtime.GC()
	after := rss(t)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("words %d: RSS %d MB -> %d MB (+%d MB); Go heap in use %d MB", tb.Len(),
		before>>20, after>>20, (after-before)>>20, ms.HeapInuse>>20)
}

func rss(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status")
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Skip("no VmRSS")
	return 0
}

func BenchmarkLoad(b *testing.B) {
	f, err := os.ReadFile("data/glove100.bin.gz")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(f)))
	c0, ok := cpuTime()
	n := 0
	for b.Loop() {
		if _, err := vectors.Load(bytes.NewReader(f)); err != nil {
			b.Fatal(err)
		}
		n++
	}
	// CPU time per load (GC included): steadier than ns/op on a busy machine.
	if c1, ok1 := cpuTime(); ok && ok1 {
		b.ReportMetric(float64((c1-c0).Milliseconds())/float64(n), "cpu-ms/op")
	}
}

// BenchmarkLookup looks up a mix of 16 words: 12 in the table (common and
// rare), 4 not. ns/op is per word.
func BenchmarkLookup(b *testing.B) {
	tb := loadDefault(b)
	var words [][]byte
	for _, w := range strings.Fields("the weather is nice today and we should go outside " +
		"photosynthesis well-known xqzzv helloooo notawordxyz") {
		words = append(words, []byte(w))
	}
	for len(words) < 16 {
		words = append(words, []byte("lighthouse"))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		tb.Lookup(words[i&15])
	}
}
