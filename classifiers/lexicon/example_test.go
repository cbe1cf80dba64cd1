package lexicon_test

import (
	"fmt"

	"github.com/openrai/raiserver/classifiers/lexicon"
)

func Example() {
	c, err := lexicon.Default()
	if err != nil {
		panic(err)
	}
	for _, text := range []string{
		"How do I kill a Python process?",
		"I'm going to punch him if he says that again.",
	} {
		fs := c.Classify(nil, []byte(text))
		var top uint8
		cat := "none"
		for _, f := range fs {
			if f.Severity > top {
				top, cat = f.Severity, f.Category.String()
			}
		}
		fmt.Printf("%s %d\n", cat, top)
	}
	// Output:
	// none 0
	// VIOLENCE 3
}
