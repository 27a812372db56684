package fmu

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DecodeStrict decodes one JSON object into v (a pointer to a struct) and
// refuses, naming the key, what encoding/json would accept silently and a
// scenario author would not mean: a key given twice in one object
// (encoding/json keeps the last value: "falls": 4, "falls": 12 would
// build 12 falls), unknown keys (a misspelt setting), null (encoding/json
// leaves the zero value), arrays of the wrong length for a fixed-size
// field (a missing z would become 0, a fourth size value would be
// dropped), missing keys of fields tagged `required:"true"` (a missing
// rope diameter would become 0), and anything after the object. A key
// given twice is refused with a *PositionError.
func DecodeStrict(data []byte, v any) error {
	if err := checkDuplicates(data); err != nil {
		return err
	}
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

// PositionError is a refusal at a place in a JSON document: Line and
// Column (from 1; the column counts characters, as editors do) of the
// offending token, in File if the document has a name.
type PositionError struct {
	File         string
	Line, Column int
	Err          error
}

func (e *PositionError) Error() string {
	at := fmt.Sprintf("%d:%d", e.Line, e.Column)
	if e.File != "" {
		at = e.File + ":" + at
	}
	return at + ": " + e.Err.Error()
}

func (e *PositionError) Unwrap() error { return e.Err }

// inFile names the file of a positioned refusal in err ("scenario.json:
// 14:5: …"); other errors are returned as they are.
func inFile(name string, err error) error {
	var pe *PositionError
	if !errors.As(err, &pe) {
		return err
	}
	named := *pe
	named.File = name
	return &named
}

// position returns the line and column (from 1, in characters) of byte
// offset off in data.
func position(data []byte, off int) (line, col int) {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return 1 + bytes.Count(data[:start], []byte("\n")), 1 + utf8.RuneCount(data[start:off])
}

// checkDuplicates refuses the first key given twice in one object,
// anywhere in the document (raw parts decoded later by a model
// included), with the position of its second occurrence and the first.
// Keys equal under encoding/json's case folding count as the same:
// "mass" and "Mass" decode into the same field. A document that is no
// valid JSON passes, for the decoder to refuse with its own message.
func checkDuplicates(data []byte) error {
	type key struct {
		name string
		off  int
	}
	type frame struct {
		object  bool
		at      string         // the container's path
		keys    map[string]key // object: by folded name
		key     string         // object: the key whose value comes next
		wantKey bool           // object: a key or '}' comes next
		index   int            // array: the next item's index
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers are not looked at: no float conversion to fail
	var stack []*frame
	// done records that a value ended in the innermost container.
	done := func() {
		if len(stack) == 0 {
			return
		}
		if top := stack[len(stack)-1]; top.object {
			top.wantKey = true
		} else {
			top.index++
		}
	}
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			name, ok := tok.(string)
			if !ok { // '}'
				stack = stack[:len(stack)-1]
				done()
			} else {
				// Between tokens lie only white space and separators: the
				// key's quote is the first other byte.
				off := before + len(data[before:]) - len(bytes.TrimLeft(data[before:], " \t\r\n,"))
				folded := foldKey(name)
				if first, dup := top.keys[folded]; dup {
					line, col := position(data, off)
					fl, fc := position(data, first.off)
					as := ""
					if first.name != name {
						as = fmt.Sprintf(" as %q", first.name)
					}
					return &PositionError{Line: line, Column: col,
						Err: fmt.Errorf("duplicate key %q (first at %d:%d%s): give each key once", join(top.at, name), fl, fc, as)}
				}
				top.keys[folded] = key{name, off}
				top.key, top.wantKey = name, false
			}
		} else if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
			at := ""
			switch {
			case top != nil && top.object:
				at = join(top.at, top.key)
			case top != nil:
				at = fmt.Sprintf("%s[%d]", top.at, top.index)
			}
			stack = append(stack, &frame{object: d == '{', at: at, keys: map[string]key{}, wantKey: true})
			continue
		} else {
			if ok { // ']'
				stack = stack[:len(stack)-1]
			}
			done()
		}
		if len(stack) == 0 {
			return nil // the first value is complete: what follows is DecodeStrict's to refuse
		}
	}
}

// foldKey folds a key as encoding/json does when it matches keys with
// struct fields: ASCII letters upper-cased, other runes to the upper case
// of their lower case.
func foldKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
		} else {
			r = unicode.ToUpper(unicode.ToLower(r))
		}
		b.WriteRune(r)
	}
	return b.String()
}
