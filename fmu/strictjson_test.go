package fmu_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
)

// strictDoc has the shapes a scenario has: a struct, a list of structs and
// a raw part decoded later.
type strictDoc struct {
	Name  string          `json:"name"`
	Items []strictItem    `json:"items"`
	Raw   json.RawMessage `json:"raw"`
}

type strictItem struct {
	X    float64    `json:"x"`
	Size [3]float64 `json:"size"`
}

// A key given twice in one object is refused wherever it stands, with the
// line and column (in characters) of its second occurrence, its path and
// where the first stands; the same key in different objects is no
// duplicate.
func TestDecodeStrictRefusesDuplicateKeys(t *testing.T) {
	cases := []struct {
		name, doc string
		want      string // "" for none
		line, col int
	}{
		{"top level", "{\"name\": \"a\",\n  \"name\": \"b\"}", `duplicate key "name" (first at 1:2)`, 2, 3},
		{"in a list's object", `{"items": [{"x": 1}, {"x": 2, "size": [1, 2, 3], "x": 3}]}`, `duplicate key "items[1].x" (first at 1:23)`, 1, 50},
		{"inside a raw part", "{\"raw\": {\"a\": {\"b\": [1, {\"c\": 1}]},\n\t\"a\": 2}}", `duplicate key "raw.a" (first at 1:10)`, 2, 2},
		{"deep in a raw part", `{"raw": [[{"k": {"c": 1, "c": null}}]]}`, `duplicate key "raw[0][0].k.c" (first at 1:18)`, 1, 26},
		{"differing in case only", `{"items": [{"x": 1, "X": 2}]}`, `duplicate key "items[0].X" (first at 1:13 as "x")`, 1, 21},
		{"column in characters", "{\"name\": \"Zürich – Öl\", \"name\": \"b\"}", `duplicate key "name" (first at 1:2)`, 1, 25},
		{"after an escaped key", `{"raw": {"a\"b": 1, "a\u0022b": 2}}`, `duplicate key "raw.a\"b" (first at 1:10)`, 1, 21},
		{"same key in different objects", `{"items": [{"x": 1}, {"x": 2}], "raw": {"x": {"x": 1}, "y": {"x": 2}}}`, "", 0, 0},
		{"same key at different depths", `{"name": "n", "raw": {"name": {"name": 1}}}`, "", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d strictDoc
			err := fmu.DecodeStrict([]byte(c.doc), &d)
			if c.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var pe *fmu.PositionError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want a position error containing %q", err, c.want)
			}
			if pe.Line != c.line || pe.Column != c.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", pe.Line, pe.Column, c.line, c.col, err)
			}
		})
	}
}

// Documents that are no valid JSON are refused with encoding/json's
// message, at the character where the document stops being JSON (the
// end of a document that ends too early), and with what was expected
// there; data after the object is refused where it starts.
func TestDecodeStrictBrokenDocuments(t *testing.T) {
	cases := []struct {
		doc, want string
		line, col int
	}{
		{`{"name": "a",`, "unexpected end of JSON input: the document ends inside a value", 1, 14},
		{"{\n  \"name\": \"a\",\n  \n", "unexpected end of JSON input", 2, 15},
		{"", "unexpected end of JSON input", 1, 1},
		{`{"name" "a"}`, `invalid character '"' after object key, want ':'`, 1, 9},
		{"{\"name\": \"a\"\n \"raw\": 1}", `invalid character '"' after object key:value pair, want ',' or '}'`, 2, 2},
		{`{"items": [{"x": 1} {"x": 2}]}`, `invalid character '{' after array element, want ',' or ']'`, 1, 21},
		{`{"name": "a",}`, `invalid character '}' looking for beginning of object key string, want a key in double quotes (no ',' after an object's last member)`, 1, 14},
		{`{"raw": [1, 2,]}`, `invalid character ']' looking for beginning of value, want a value (no ',' after a list's last value)`, 1, 15},
		{`{"name": 'a'}`, `invalid character '\'' looking for beginning of value, want a value`, 1, 10},
		{"{\"name\": \"Zürich\", \"raw\": tru}", "invalid character '}' in literal true (expecting 'e')", 1, 30},
		{`{"name": "a"} {"name": "a"}`, "data after the JSON object: one object only", 1, 15},
		{"{\"name\": \"a\"}\n\n]", "data after the JSON object: one object only", 3, 1},
	}
	for _, c := range cases {
		var d strictDoc
		err := fmu.DecodeStrict([]byte(c.doc), &d)
		var pe *fmu.PositionError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want a position error containing %q", c.doc, err, c.want)
			continue
		}
		if pe.Line != c.line || pe.Column != c.col {
			t.Errorf("%q: at %d:%d, want %d:%d (%v)", c.doc, pe.Line, pe.Column, c.line, c.col, err)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %q is more than one line", c.doc, err)
		}
	}
}

// A scenario's duplicate key is refused naming the scenario's file.
func TestScenarioDuplicateKeyNamesTheFile(t *testing.T) {
	data, err := os.ReadFile("../examples/massless/" + fmu.ScenarioFile)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `"mass": 1000`, `"mass": 1000, "mass": 2000`, 1)
	second := strings.LastIndex(text, `"mass"`)
	line := 1 + strings.Count(text[:second], "\n")
	col := second - strings.LastIndex(text[:second], "\n")
	_, err = fmu.ParseScenario([]byte(text))
	want := fmu.ScenarioFile + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col) + `: duplicate key "config.bodies[1].mass"`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// shapeDoc has a field of each kind DecodeStrict checks.
type shapeDoc struct {
	Name  string          `json:"name"`
	Count int             `json:"count"`
	Every float64         `json:"every" zero:"default"`
	On    bool            `json:"on"`
	Parts []shapePart     `json:"parts"`
	Raw   json.RawMessage `json:"raw"`
	Old   *float64        `json:"old" schema:"-"`
}

type shapePart struct {
	Mass     float64            `json:"mass" required:"true"`
	Position [3]float64         `json:"position"`
	Tags     map[string]float64 `json:"tags"`
}

// What DecodeStrict refuses is refused at the offending key or value (a
// missing key at the brace of the object that lacks it), the first in
// the document's order, in one line naming the key's path and what is
// expected; an unknown key with the nearest valid key, or the valid keys
// when none is near (a key kept only to be refused, schema:"-", is not
// offered).
func TestDecodeStrictRefusalsAtTheirPlace(t *testing.T) {
	cases := []struct {
		doc, want string
		line, col int
	}{
		{`{"name": "a", "cuont": 3}`, `unknown key "cuont" (did you mean "count"?)`, 1, 15},
		{`{"NAMEE": "a"}`, `unknown key "NAMEE" (did you mean "name"?)`, 1, 2},
		{"{\"name\": \"Zürich\", \"cuont\": 1}", `unknown key "cuont" (did you mean "count"?)`, 1, 20},
		{`{"parts": [{"mass": 1, "postion": [0, 0, 0]}]}`, `unknown key "parts[0].postion" (did you mean "position"?)`, 1, 24},
		{`{"parts": [{"mass": 1, "xyz": 2}]}`, `unknown key "parts[0].xyz" (valid keys: "mass", "position", "tags")`, 1, 24},
		{`{"olld": 1}`, `unknown key "olld" (valid keys: "name", "count", "every", "on", "parts", "raw")`, 1, 2},
		{`{"cuont": 1, "name": null}`, `unknown key "cuont" (did you mean "count"?)`, 1, 2},
		{`{"count": "3"}`, `"count": the string "3", want a whole number`, 1, 11},
		{`{"count": 2.5}`, `"count": 2.5, want a whole number`, 1, 11},
		{`{"count": 1e3}`, `"count": 1e3, want a whole number written without a fraction or exponent`, 1, 11},
		{`{"count": 99999999999999999999}`, `"count": 99999999999999999999, want a whole number in [-9223372036854775808, 9223372036854775807]`, 1, 11},
		{`{"on": 1}`, `"on": 1, want true or false`, 1, 8},
		{`{"name": 5}`, `"name": 5, want a string`, 1, 10},
		{`{"parts": {}}`, `"parts": an object, want a list`, 1, 11},
		{`{"parts": [[]]}`, `"parts[0]": a list, want an object`, 1, 12},
		{`{"parts": [{"mass": 1, "position": 5}]}`, `"parts[0].position": 5, want a list of 3 values`, 1, 36},
		{`{"parts": [{"mass": 1e400}]}`, `"parts[0].mass": 1e400, want a number of size at most 1.7976931348623157e+308`, 1, 21},
		{`{"parts": [{"mass": 1, "tags": {"a": true}}]}`, `"parts[0].tags.a": true, want a number`, 1, 38},
		{`{"name": null}`, `"name": null is not a value (leave the key out for its default)`, 1, 10},
		{`{"raw": {"a": [1, null]}}`, `"raw.a[1]": null is not a value (leave the key out for its default)`, 1, 19},
		{`{"parts": [{"mass": 1, "position": [1, 2]}]}`, `"parts[0].position": 2 values, want 3`, 1, 36},
		{"{\"parts\": [\n  {\"position\": [1, 2, 3]}\n]}", `"parts[0]": "mass" is missing`, 2, 3},
		{`[1]`, `the document: a list, want an object`, 1, 1},
		{`{"every": 0}`, `"every": 0 is not a value (leave the key out for its default)`, 1, 11},
		{`{"name": "a", "every": -0.0e5}`, `"every": 0 is not a value (leave the key out for its default)`, 1, 24},
	}
	for _, c := range cases {
		var d shapeDoc
		err := fmu.DecodeStrict([]byte(c.doc), &d)
		var pe *fmu.PositionError
		if !errors.As(err, &pe) || pe.Err.Error() != c.want {
			t.Errorf("%s: got %v, want a position error %q", c.doc, err, c.want)
			continue
		}
		if pe.Line != c.line || pe.Column != c.col {
			t.Errorf("%s: at %d:%d, want %d:%d (%v)", c.doc, pe.Line, pe.Column, c.line, c.col, err)
		}
		if want := fmt.Sprintf("%d:%d: %s", c.line, c.col, c.want); err.Error() != want {
			t.Errorf("%s: %q, want %q", c.doc, err, want)
		}
	}
}

// Nearest offers a name a few edits away (a swap of neighbours counting
// as one, case ignored), the first of the nearest, and nothing when all
// are far.
func TestNearest(t *testing.T) {
	names := []string{"stopTime", "step", "model", "modelIdentifier", "length0", "massless", "mass-spring"}
	for name, want := range map[string]string{
		"stopTim": "stopTime", "STOPTIME2": "stopTime", "stpe": "step", "lenght0": "length0", "masless": "massless",
		"mdoel": "model", "modelIdentifer": "modelIdentifier", "massspring": "mass-spring",
		"spring": "", "x": "", "gravity": "", "": "",
	} {
		got, ok := fmu.Nearest(name, names)
		if ok != (want != "") || got != want {
			t.Errorf("Nearest(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}

// AtKey and AtValue place an error at a path's key or value, keys
// matched as the decoder matches them; a path the document lacks leaves
// the error as it is.
func TestAtKeyAndValue(t *testing.T) {
	doc := []byte("{\n  \"cable\": {\"Rope\": {\"E\": 1e11}},\n  \"items\": [1, [2, 3]]\n}")
	plain := errors.New("refused")
	for _, c := range []struct {
		key  bool
		path string
		want string
	}{
		{true, "cable.rope.E", "2:22: refused"},
		{false, "cable.rope.E", "2:27: refused"},
		{true, "cable", "2:3: refused"},
		{false, "cable", "2:12: refused"},
		{true, "items[1][0]", "3:17: refused"},
		{false, "", "1:1: refused"},
		{true, "cable.rope.G", "refused"},
		{false, "items[2]", "refused"},
	} {
		at := fmu.AtValue
		if c.key {
			at = fmu.AtKey
		}
		if got := at(doc, c.path, plain); got.Error() != c.want || !errors.Is(got, plain) {
			t.Errorf("key %v, %q: %v, want %q wrapping the error", c.key, c.path, got, c.want)
		}
	}
}
