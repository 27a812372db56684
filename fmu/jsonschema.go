package fmu

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
)

// SchemaDraft is the JSON Schema dialect TypeSchema and Registry.Schema
// write.
const SchemaDraft = "https://json-schema.org/draft/2020-12/schema"

// Configurable is a Model that tells the Go type its scenario's "config"
// decodes into, so that the scenario's JSON Schema follows the type and
// cannot drift from what the model reads.
type Configurable interface {
	Model
	// ConfigType returns a pointer to a zero value of the config type.
	ConfigType() any
}

// TypeSchema returns the JSON Schema of the JSON that DecodeStrict reads
// into a value of v's type: objects with exactly the struct's keys
// (embedded structs' keys included, no others), the keys of fields
// tagged required:"true" required, not 0 for fields tagged
// zero:"default", arrays of a Go array's length, no null. A field tagged
// schema:"-" is left out: a key kept only to be refused with a reason (a
// setting that went).
func TypeSchema(v any) map[string]any {
	return typeSchema(reflect.TypeOf(v))
}

func typeSchema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeOf(json.RawMessage(nil)) {
		return map[string]any{}
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Array:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem()), "minItems": t.Len(), "maxItems": t.Len()}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": typeSchema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": typeSchema(t.Elem())}
	case reflect.Struct:
		props, required := map[string]any{}, []string{}
		structFields(t, props, &required)
		s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if len(required) > 0 {
			sort.Strings(required)
			s["required"] = required
		}
		return s
	}
	return map[string]any{} // interfaces: anything
}

// structFields adds the JSON keys of t's exported fields to props.
func structFields(t reflect.Type, props map[string]any, required *[]string) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			structFields(f.Type, props, required)
			continue
		}
		if !f.IsExported() || name == "-" || f.Tag.Get("schema") == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		props[name] = typeSchema(f.Type)
		if f.Tag.Get("zero") == "default" {
			props[name].(map[string]any)["not"] = map[string]any{"const": 0} // DecodeStrict refuses it
		}
		if f.Tag.Get("required") == "true" {
			*required = append(*required, name)
		}
	}
}

// Schema returns the JSON Schema of a scenario for the registry's models:
// the scenario's keys (Scenario), "model" one of the models' names, and
// "config" the type of the model named (Configurable).
func (r *Registry) Schema() map[string]any {
	top := TypeSchema(Scenario{})
	props := top["properties"].(map[string]any)
	var names []string
	for name := range r.models {
		names = append(names, name)
	}
	sort.Strings(names)
	props["model"] = map[string]any{"enum": names}
	var cases []any
	for _, name := range names {
		c, ok := r.models[name].(Configurable)
		if !ok {
			continue
		}
		cases = append(cases, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"model": map[string]any{"const": name}}, "required": []string{"model"}},
			"then": map[string]any{"properties": map[string]any{"config": TypeSchema(c.ConfigType())}},
		})
	}
	top["$schema"] = SchemaDraft
	top["title"] = "cablefmu scenario"
	top["required"] = []string{"model", "modelIdentifier", "stopTime", "step", "ports", "config"}
	top["allOf"] = cases
	return top
}
