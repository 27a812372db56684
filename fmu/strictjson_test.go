package fmu_test

import (
	"encoding/json"
	"errors"
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

// Documents that are no valid JSON are still refused by the decoder with
// its message, and trailing data after the object as before.
func TestDecodeStrictBrokenDocuments(t *testing.T) {
	for doc, want := range map[string]string{
		`{"name": "a",`:               "unexpected EOF",
		`{"name" "a"}`:                "invalid character",
		`{"name": "a"} {"name": "a"}`: "data after the JSON object",
	} {
		var d strictDoc
		if err := fmu.DecodeStrict([]byte(doc), &d); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", doc, err, want)
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
	if err == nil || !strings.HasPrefix(err.Error(), "scenario: "+want) {
		t.Fatalf("got %v, want %q", err, "scenario: "+want)
	}
}
