package linear_test

import (
	"fmt"

	"github.com/openrai/raiserver/classifiers/linear"
)

func ExampleModel_Scores() {
	m, err := linear.Default()
	if err != nil {
		panic(err)
	}
	var p [linear.N]float32
	m.Scores([]byte("Could you recommend a good book about gardening?"), &p)
	blocked := false
	for c, v := range p {
		th := m.Params().Thresholds[c]
		blocked = blocked || th.Severity(v) >= 2
	}
	fmt.Println("blocked:", blocked)
	// Output: blocked: false
}
