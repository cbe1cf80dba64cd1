package extract

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

var imageRootNames = []string{"prompt", "image", "images", "data", "type"}

// imageTextNames are the Imagegeneration fields that hold content (text or images).
var imageTextNames = imageRootNames[:4]

// image extracts an Imagegeneration request (prompt → PROMPT ("0", 0); input
// images of an edit → NoModel ("0", IndexImage+k)), a response
// (data[n].revised_prompt → COMPLETION ("0", n); the image itself → NoModel
// ("0", IndexImage+n)) or a stream event (partial or final image → NoModel
// ("0", IndexImage)). Generated images are COMPLETION whatever sourceType
// says, so that a revised prompt never shares a key with the prompt. A
// payload with no prompt, image or data carries none (see foreign).
func (p *parser) image(root gjson.Result) error {
	var v [5]gjson.Result
	if err := read(root, imageRootNames, v[:], rootPath); err != nil {
		return err
	}
	if !v[0].Exists() && !v[1].Exists() && !v[2].Exists() && !v[3].Exists() {
		if err := foreign(root, imageTextNames); err != nil {
			return err
		}
	}
	prompt, err := str(v[0], func() string { return "prompt" })
	if err != nil {
		return err
	}
	p.text(Prompt, "0", 0, prompt, false)
	if err := p.inputImages("image", v[1], true); err != nil {
		return err
	}
	if err := p.inputImages("images", v[2], false); err != nil {
		return err
	}
	if err := p.imageData(v[3]); err != nil {
		return err
	}
	typ, err := str(v[4], func() string { return "type" })
	if err != nil {
		return err
	}
	if (strings.HasPrefix(typ, "image_generation.") || strings.HasPrefix(typ, "image_edit.")) &&
		(strings.HasSuffix(typ, ".partial_image") || strings.HasSuffix(typ, ".completed")) {
		p.noModel(Completion, "0", IndexImage)
	}
	return nil
}

// inputImages reports each input image of an edit request as NoModel.
// "image" may be one image (a string or object) or an array; "images" is an array.
func (p *parser) inputImages(name string, v gjson.Result, single bool) error {
	switch {
	case absent(v):
		return nil
	case v.IsArray():
	case single:
		p.noModel(Prompt, "0", IndexImage)
		return nil
	default:
		return shapeErr(name, "array", v)
	}
	k := 0
	var err error
	v.ForEach(func(_, e gjson.Result) bool {
		if k >= IndexLimit {
			err = fmt.Errorf("%w: %s: more than %d images", ErrShape, name, IndexLimit)
			return false
		}
		if !absent(e) {
			p.noModel(Prompt, "0", IndexImage+k)
		}
		k++
		return true
	})
	return err
}

var imageDataNames = []string{"revised_prompt", "url", "b64_json"}

func (p *parser) imageData(v gjson.Result) error {
	switch {
	case absent(v):
		return nil
	case !v.IsArray():
		return shapeErr("data", "array", v)
	}
	n := 0
	var err error
	v.ForEach(func(_, d gjson.Result) bool {
		path := func() string { return fmt.Sprintf("data[%d]", n) }
		switch {
		case n >= IndexLimit:
			err = fmt.Errorf("%w: data: more than %d images", ErrShape, IndexLimit)
			return false
		case absent(d):
		case !d.IsObject():
			err = shapeErr(path(), "object", d)
		default:
			var f [3]gjson.Result
			if err = read(d, imageDataNames, f[:], path); err != nil {
				return false
			}
			var revised string
			if revised, err = str(f[0], func() string { return path() + ".revised_prompt" }); err != nil {
				return false
			}
			p.text(Completion, "0", n, revised, false)
			if !absent(f[1]) || !absent(f[2]) {
				p.noModel(Completion, "0", IndexImage+n)
			}
		}
		n++
		return err == nil
	})
	return err
}
