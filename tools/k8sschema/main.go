// Command k8sschema turns the Kubernetes OpenAPI v3 documents shipped in the
// k8s.io/kubernetes Go module (api/openapi-spec/v3) into the per-kind JSON
// Schemas that kubeconform reads, so manifests are validated with no network
// beyond the Go module proxy.
//
// Usage:
//
//	k8sschema -spec DIR/api/openapi-spec/v3 -out OUTDIR
//
// For every kind it writes OUTDIR/<kind><suffix>.json, named as kubeconform's
// -schema-location template {{ .ResourceKind }}{{ .KindSuffix }}.json expects
// (deployment-apps-v1.json, service-v1.json, ...). Each file stands alone: the
// definitions the kind reaches are copied under "definitions" and every $ref
// points there. With -strict (the default) every object schema that lists
// its properties rejects other properties, as kubectl's client-side
// validation does, and apiVersion and kind are pinned to the kind's own.
//
// Imports: the standard library only.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

const (
	refPrefixV3  = "#/components/schemas/"
	refPrefixOut = "#/definitions/"
)

func main() {
	spec := flag.String("spec", "", "directory holding the OpenAPI v3 documents (api/openapi-spec/v3 of k8s.io/kubernetes)")
	out := flag.String("out", "", "directory to write the JSON Schemas to")
	strict := flag.Bool("strict", true, "reject properties a schema does not list")
	flag.Parse()
	if *spec == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "k8sschema: -spec and -out are required")
		os.Exit(2)
	}
	n, err := run(*spec, *out, *strict)
	if err != nil {
		fmt.Fprintln(os.Stderr, "k8sschema:", err)
		os.Exit(1)
	}
	fmt.Printf("k8sschema: %d kinds written to %s\n", n, *out)
}

// gvk is one entry of x-kubernetes-group-version-kind.
type gvk struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

func (g gvk) apiVersion() string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// fileName is kubeconform's {{ .ResourceKind }}{{ .KindSuffix }}.json: the
// kind in lower case, the first label of the group, the version.
func (g gvk) fileName() string {
	suffix := "-" + strings.ToLower(g.Version)
	if g.Group != "" {
		suffix = "-" + strings.ToLower(strings.Split(g.Group, ".")[0]) + suffix
	}
	return strings.ToLower(g.Kind) + suffix + ".json"
}

// run reads every *_openapi.json under spec and writes one schema per kind
// that the document for the kind's own group-version defines.
func run(spec, out string, strict bool) (int, error) {
	docs, err := filepath.Glob(filepath.Join(spec, "*_openapi.json"))
	if err != nil {
		return 0, err
	}
	if len(docs) == 0 {
		return 0, fmt.Errorf("no *_openapi.json in %s", spec)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return 0, err
	}
	written := 0
	for _, doc := range docs {
		schemas, err := readSchemas(doc)
		if err != nil {
			return 0, err
		}
		names := make([]string, 0, len(schemas))
		for name := range schemas {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			kinds, err := kindsOf(schemas[name])
			if err != nil {
				return 0, fmt.Errorf("%s: %s: %w", doc, name, err)
			}
			// Meta types such as DeleteOptions carry a list of every
			// group-version; only a single kind is a resource of its own.
			if len(kinds) != 1 || !docServes(doc, kinds[0]) {
				continue
			}
			s, err := standalone(schemas, name, kinds[0], strict)
			if err != nil {
				return 0, fmt.Errorf("%s: %s: %w", doc, name, err)
			}
			b, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				return 0, err
			}
			if err := os.WriteFile(filepath.Join(out, kinds[0].fileName()), append(b, '\n'), 0o644); err != nil {
				return 0, err
			}
			written++
		}
	}
	if written == 0 {
		return 0, errors.New("no kinds found")
	}
	return written, nil
}

// docServes reports whether doc is the OpenAPI document of g's group-version
// (api__v1_openapi.json, apis__apps__v1_openapi.json, ...), so each kind is
// taken from its own document and not from one that only refers to it.
func docServes(doc string, g gvk) bool {
	want := "apis__" + g.Group + "__" + g.Version + "_openapi.json"
	if g.Group == "" {
		want = "api__" + g.Version + "_openapi.json"
	}
	return filepath.Base(doc) == want
}

func readSchemas(path string) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc.Components.Schemas, nil
}

func kindsOf(schema any) ([]gvk, error) {
	m, ok := schema.(map[string]any)
	if !ok {
		return nil, nil
	}
	raw, ok := m["x-kubernetes-group-version-kind"]
	if !ok {
		return nil, nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	var kinds []gvk
	if err := json.Unmarshal(b, &kinds); err != nil {
		return nil, err
	}
	return kinds, nil
}

// standalone builds the schema of the kind defined as name: the kind's schema
// at the root, every definition it reaches under "definitions".
func standalone(schemas map[string]any, name string, g gvk, strict bool) (map[string]any, error) {
	defs := map[string]any{}
	// visit copies one schema object, following the keywords whose values
	// are schemas; everything else (enum, default, required, x-kubernetes-*)
	// is a value and is copied as it is. Property names are never read as
	// keywords: JSONSchemaProps has properties named $ref, default and enum.
	var visit func(v any) (any, error)
	visitList := func(v any) (any, error) {
		l, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("expected a list of schemas, got %T", v)
		}
		c := make([]any, len(l))
		for i, e := range l {
			ce, err := visit(e)
			if err != nil {
				return nil, err
			}
			c[i] = ce
		}
		return c, nil
	}
	visit = func(v any) (any, error) {
		m, ok := v.(map[string]any)
		if !ok {
			return v, nil // additionalProperties: true/false
		}
		c := make(map[string]any, len(m)+1)
		for k, e := range m {
			var err error
			switch k {
			case "$ref":
				ref, ok := e.(string)
				if !ok || !strings.HasPrefix(ref, refPrefixV3) {
					return nil, fmt.Errorf("unsupported $ref %v", e)
				}
				target := strings.TrimPrefix(ref, refPrefixV3)
				if _, seen := defs[target]; !seen {
					s, ok := schemas[target]
					if !ok {
						return nil, fmt.Errorf("$ref to missing %s", target)
					}
					defs[target] = nil // marked before descending: definitions can be recursive
					d, err := visit(s)
					if err != nil {
						return nil, err
					}
					defs[target] = d
				}
				c[k] = refPrefixOut + target
				continue
			case "properties", "patternProperties":
				props, ok := e.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%s is %T", k, e)
				}
				cp := make(map[string]any, len(props))
				for pn, ps := range props {
					if cp[pn], err = visit(ps); err != nil {
						return nil, err
					}
				}
				c[k] = cp
				continue
			case "items", "additionalProperties", "not":
				c[k], err = visit(e)
			case "allOf", "oneOf", "anyOf":
				c[k], err = visitList(e)
			default:
				c[k] = e
			}
			if err != nil {
				return nil, err
			}
		}
		if _, ok := c["properties"]; ok && strict {
			if _, set := c["additionalProperties"]; !set {
				c["additionalProperties"] = false
			}
		}
		return c, nil
	}
	rootAny, err := visit(schemas[name])
	if err != nil {
		return nil, err
	}
	root := rootAny.(map[string]any)
	props, _ := root["properties"].(map[string]any)
	if props == nil {
		return nil, errors.New("kind without properties")
	}
	props["apiVersion"] = map[string]any{"type": "string", "enum": []any{g.apiVersion()}}
	props["kind"] = map[string]any{"type": "string", "enum": []any{g.Kind}}
	root["required"] = addRequired(root["required"], "apiVersion", "kind")
	if len(defs) > 0 {
		root["definitions"] = defs
	}
	return root, nil
}

func addRequired(cur any, names ...string) []any {
	list, _ := cur.([]any)
	for _, n := range names {
		found := false
		for _, e := range list {
			if e == n {
				found = true
			}
		}
		if !found {
			list = append(list, n)
		}
	}
	return list
}
