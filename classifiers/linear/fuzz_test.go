package linear_test

import (
	"bytes"
	"testing"

	"github.com/openrai/raiserver/classifiers/linear"
)

// FuzzLoad: Load never panics, and what it accepts round-trips.
func FuzzLoad(f *testing.F) {
	p := tinyParams(f)
	raw, err := p.Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add(raw[:40])
	p.Vectors = randomTerm(table(f), 2) // a version-3 file
	raw3, err := p.Encode()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw3)
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := linear.Load(bytes.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if _, err := m.WriteTo(&buf); err != nil {
			t.Fatalf("accepted model does not write: %v", err)
		}
		if _, err := linear.Load(&buf); err != nil {
			t.Fatalf("written model does not load: %v", err)
		}
	})
}

// FuzzScores: any bytes give probabilities in [0, 1], the same twice.
func FuzzScores(f *testing.F) {
	m, err := linear.Default()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"", "hello", "k i l l", "h4te", "\xff\xfe", "ｆｕｌｌ", "a\u200bb"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var p, q [linear.N]float32
		m.Scores(text, &p)
		m.Scores(text, &q)
		if p != q {
			t.Fatal("scores differ between two calls")
		}
		for _, v := range p {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("probability %v", v)
			}
		}
	})
}
