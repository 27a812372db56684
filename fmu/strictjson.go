package fmu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// DecodeStrict decodes one JSON object into v (a pointer to a struct) and
// refuses, naming the key, what encoding/json would accept silently and a
// scenario author would not mean: unknown keys (a misspelt setting), null
// (encoding/json leaves the zero value), arrays of the wrong length for a
// fixed-size field (a missing z would become 0, a fourth size value would
// be dropped), missing keys of fields tagged `required:"true"` (a missing
// rope diameter would become 0), and anything after the object.
func DecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("data after the JSON object at byte %d: one object only", dec.InputOffset())
	}
	var tree any
	if err := json.Unmarshal(data, &tree); err != nil {
		return err
	}
	return checkShape(tree, reflect.TypeOf(v), "")
}

// checkShape compares a decoded JSON tree with the Go type it was decoded
// into.
func checkShape(j any, t reflect.Type, at string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if j == nil {
		return fmt.Errorf("%s: null is not a value (leave the key out for its default)", where(at))
	}
	if t == reflect.TypeOf(json.RawMessage(nil)) {
		return checkNoNull(j, at)
	}
	switch t.Kind() {
	case reflect.Array, reflect.Slice:
		items, ok := j.([]any)
		if !ok {
			return nil // encoding/json has already refused it
		}
		if t.Kind() == reflect.Array && len(items) != t.Len() {
			return fmt.Errorf("%s: %d values, want %d", where(at), len(items), t.Len())
		}
		for i, x := range items {
			if err := checkShape(x, t.Elem(), fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		m, ok := j.(map[string]any)
		if !ok {
			return nil
		}
		for k, x := range m {
			if err := checkShape(x, t.Elem(), join(at, k)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		m, ok := j.(map[string]any)
		if !ok {
			return nil
		}
		if err := checkRequired(m, t, at); err != nil {
			return err
		}
		for k, x := range m {
			f, ok := fieldFor(t, k)
			if !ok {
				continue // encoding/json has refused unknown keys
			}
			if err := checkShape(x, f.Type, join(at, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkRequired refuses an object that lacks the key of a field tagged
// required:"true".
func checkRequired(m map[string]any, t reflect.Type, at string) error {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if err := checkRequired(m, f.Type, at); err != nil {
				return err
			}
			continue
		}
		if f.Tag.Get("required") != "true" {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		found := false
		for k := range m {
			found = found || strings.EqualFold(k, name)
		}
		if !found {
			return fmt.Errorf("%s: %q is missing", where(at), name)
		}
	}
	return nil
}

// checkNoNull refuses null anywhere in a raw part (decoded later by the
// model, with its own shape check).
func checkNoNull(j any, at string) error {
	switch x := j.(type) {
	case nil:
		return fmt.Errorf("%s: null is not a value (leave the key out for its default)", where(at))
	case []any:
		for i, y := range x {
			if err := checkNoNull(y, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, y := range x {
			if err := checkNoNull(y, join(at, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldFor finds the struct field a JSON key decodes into, as
// encoding/json does: the tag name, else the field name, case-insensitively;
// embedded structs' fields count as the outer struct's.
func fieldFor(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				if g, ok := fieldFor(et, key); ok {
					return g, true
				}
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.EqualFold(name, key) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func where(at string) string {
	if at == "" {
		return "the document"
	}
	return fmt.Sprintf("%q", at)
}
