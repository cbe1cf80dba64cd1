package extract

import (
	"fmt"

	"github.com/tidwall/gjson"
)

var completionRootNames = []string{"prompt", "suffix", "choices"}

// completion extracts a legacy Completions request (prompt and suffix →
// PROMPT "0") or response / stream chunk (choices[k].text → COMPLETION). A
// payload with none of them carries no text (see foreign).
func (p *parser) completion(root gjson.Result) error {
	var v [3]gjson.Result
	if err := read(root, completionRootNames, v[:], rootPath); err != nil {
		return err
	}
	if !v[0].Exists() && !v[1].Exists() && !v[2].Exists() {
		return foreign(root, completionRootNames)
	}
	if err := p.prompt(v[0]); err != nil {
		return err
	}
	suffix, err := str(v[1], func() string { return "suffix" })
	if err != nil {
		return err
	}
	p.text(Prompt, "0", IndexSuffix, suffix, false)
	return p.completionChoices(v[2])
}

// prompt extracts a string prompt, or an array of strings concatenated in
// order without separator. Token arrays (integers, or arrays of them) carry no
// text: one NoModel for ("0", 0).
func (p *parser) prompt(v gjson.Result) error {
	switch {
	case absent(v):
		return nil
	case v.Type == gjson.String:
		p.text(Prompt, "0", 0, sval(v), false)
		return nil
	case !v.IsArray():
		return shapeErr("prompt", "string or array", v)
	}
	var err error
	tokens := false
	j := 0
	v.ForEach(func(_, e gjson.Result) bool {
		switch {
		case e.Type == gjson.String:
			p.text(Prompt, "0", 0, sval(e), false)
		case e.Type == gjson.Number:
			tokens = true
		case e.IsArray():
			tokens = true
			e.ForEach(func(_, t gjson.Result) bool {
				if t.Type != gjson.Number {
					err = fmt.Errorf("%w: prompt[%d]: want token array, got an array holding %s", ErrShape, j, kind(t))
				}
				return err == nil
			})
		default:
			err = shapeErr(fmt.Sprintf("prompt[%d]", j), "string, token or token array", e)
		}
		j++
		return err == nil
	})
	if err == nil && tokens {
		p.noModel(Prompt, "0", 0)
	}
	return err
}

var completionChoiceNames = []string{"index", "text"}

func (p *parser) completionChoices(v gjson.Result) error {
	return items(v, func() string { return "choices" }, p.completionChoice)
}

func (p *parser) completionChoice(k int, c gjson.Result) error {
	l := loc{"choices", k, ""}
	if absent(c) {
		return nil
	}
	if !c.IsObject() {
		return shapeErr(l.String(), "object", c)
	}
	var f [2]gjson.Result
	if err := read(c, completionChoiceNames, f[:], l.String); err != nil {
		return err
	}
	idx, err := index(f[0], l.i, maxMessageIndex, func() string { return l.String() + ".index" })
	if err != nil {
		return err
	}
	text, err := str(f[1], func() string { return l.String() + ".text" })
	if err != nil {
		return err
	}
	p.text(Completion, itoa(idx), 0, text, false)
	return nil
}
