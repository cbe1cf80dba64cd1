package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A small OpenAPI v3 document with the shapes the Kubernetes one has: a kind
// with x-kubernetes-group-version-kind, refs wrapped in allOf, a recursive
// definition, a property named like a keyword, and a meta type listed under
// many kinds.
const doc = `{"components": {"schemas": {
  "io.k8s.api.apps.v1.Widget": {
    "type": "object",
    "required": ["spec"],
    "properties": {
      "apiVersion": {"type": "string"},
      "kind": {"type": "string"},
      "spec": {"allOf": [{"$ref": "#/components/schemas/io.k8s.api.apps.v1.WidgetSpec"}], "default": {}}
    },
    "x-kubernetes-group-version-kind": [{"group": "apps", "kind": "Widget", "version": "v1"}]
  },
  "io.k8s.api.apps.v1.WidgetSpec": {
    "type": "object",
    "properties": {
      "$ref": {"type": "string"},
      "size": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.util.intstr.IntOrString"},
      "child": {"$ref": "#/components/schemas/io.k8s.api.apps.v1.WidgetSpec"},
      "labels": {"type": "object", "additionalProperties": {"type": "string"}}
    }
  },
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": {"format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]},
  "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions": {
    "type": "object",
    "properties": {"dryRun": {"type": "array", "items": {"type": "string"}}},
    "x-kubernetes-group-version-kind": [{"group": "", "kind": "DeleteOptions", "version": "v1"}, {"group": "apps", "kind": "DeleteOptions", "version": "v1"}]
  }
}}}`

func TestRun(t *testing.T) {
	spec, out := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(spec, "apis__apps__v1_openapi.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err := run(spec, out, true)
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("wrote %d kinds, want 1 (DeleteOptions lists many kinds and is skipped)", n)
	}
	b, err := os.ReadFile(filepath.Join(out, "widget-apps-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["additionalProperties"] != false {
		t.Errorf("root additionalProperties = %v, want false", got["additionalProperties"])
	}
	props := got["properties"].(map[string]any)
	if want := map[string]any{"type": "string", "enum": []any{"apps/v1"}}; !reflect.DeepEqual(props["apiVersion"], want) {
		t.Errorf("apiVersion = %v, want %v", props["apiVersion"], want)
	}
	if want := []any{"spec", "apiVersion", "kind"}; !reflect.DeepEqual(got["required"], want) {
		t.Errorf("required = %v, want %v", got["required"], want)
	}
	spc := props["spec"].(map[string]any)
	if ref := spc["allOf"].([]any)[0].(map[string]any)["$ref"]; ref != "#/definitions/io.k8s.api.apps.v1.WidgetSpec" {
		t.Errorf("spec $ref = %v", ref)
	}
	if !reflect.DeepEqual(spc["default"], map[string]any{}) {
		t.Errorf("default changed: %v", spc["default"])
	}
	defs := got["definitions"].(map[string]any)
	if len(defs) != 2 {
		t.Errorf("%d definitions, want WidgetSpec and IntOrString", len(defs))
	}
	ws := defs["io.k8s.api.apps.v1.WidgetSpec"].(map[string]any)
	if ws["additionalProperties"] != false {
		t.Error("WidgetSpec is not strict")
	}
	wp := ws["properties"].(map[string]any)
	if !reflect.DeepEqual(wp["$ref"], map[string]any{"type": "string"}) {
		t.Errorf("the property named $ref was read as a keyword: %v", wp["$ref"])
	}
	if wp["child"].(map[string]any)["$ref"] != "#/definitions/io.k8s.api.apps.v1.WidgetSpec" {
		t.Error("recursive $ref not rewritten")
	}
	if _, set := wp["labels"].(map[string]any)["additionalProperties"].(map[string]any); !set {
		t.Error("a map's additionalProperties schema was replaced")
	}
	if _, ok := defs["io.k8s.apimachinery.pkg.util.intstr.IntOrString"].(map[string]any)["oneOf"]; !ok {
		t.Error("IntOrString lost its oneOf")
	}
}

func TestRunNotStrict(t *testing.T) {
	spec, out := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(spec, "apis__apps__v1_openapi.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := run(spec, out, false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "widget-apps-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if _, set := got["additionalProperties"]; set {
		t.Error("additionalProperties set without -strict")
	}
}

func TestFileName(t *testing.T) {
	for _, tc := range []struct {
		g    gvk
		want string
	}{
		{gvk{"", "v1", "Service"}, "service-v1.json"},
		{gvk{"apps", "v1", "Deployment"}, "deployment-apps-v1.json"},
		{gvk{"autoscaling", "v2", "HorizontalPodAutoscaler"}, "horizontalpodautoscaler-autoscaling-v2.json"},
		{gvk{"networking.k8s.io", "v1", "NetworkPolicy"}, "networkpolicy-networking-v1.json"},
	} {
		if got := tc.g.fileName(); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.g, got, tc.want)
		}
	}
}

func TestRunErrors(t *testing.T) {
	spec := t.TempDir()
	if _, err := run(spec, t.TempDir(), true); err == nil {
		t.Error("no documents: no error")
	}
	broken := `{"components": {"schemas": {"io.k8s.api.apps.v1.W": {"type": "object", "properties": {"a": {"$ref": "#/components/schemas/Missing"}}, "x-kubernetes-group-version-kind": [{"group": "apps", "kind": "W", "version": "v1"}]}}}}`
	if err := os.WriteFile(filepath.Join(spec, "apis__apps__v1_openapi.json"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := run(spec, t.TempDir(), true); err == nil {
		t.Error("a $ref to a missing definition: no error")
	}
}
