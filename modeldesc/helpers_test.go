package modeldesc

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// assertViolations checks the error of Check: exactly the rules in want
// must fire (none when want is empty), and some violation of a wanted rule
// must mention subject.
func assertViolations(t *testing.T, err error, want []Rule, subject string) {
	t.Helper()
	got := Violations(err)
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("want no violation, got:\n%v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("want %v, Check passed", want)
	}
	if len(got) == 0 {
		t.Fatalf("Check returned %v without *Violation", err)
	}
	var rules []Rule
	for _, g := range got {
		if !slices.Contains(rules, g.Rule) {
			rules = append(rules, g.Rule)
		}
	}
	slices.Sort(rules)
	sorted := slices.Clone(want)
	slices.Sort(sorted)
	if !slices.Equal(rules, sorted) {
		t.Errorf("rules = %v, want %v; violations:\n%v", rules, sorted, err)
	}
	found := false
	for _, g := range got {
		if strings.Contains(g.Error(), subject) && slices.Contains(want, g.Rule) {
			found = true
		}
	}
	if !found {
		t.Errorf("no %v violation about %s; violations:\n%v", want, subject, err)
	}
}

// assertRoundTrip marshals md, parses the XML back with parse (called name
// in messages) and requires an equal description and identical XML from a
// second Marshal.
func assertRoundTrip[M interface{ Marshal() ([]byte, error) }](t *testing.T, md M, name string, parse func([]byte) (M, error)) {
	t.Helper()
	data, err := md.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := parse(data)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, data)
	}
	if !reflect.DeepEqual(md, back) {
		t.Errorf("round trip changed the description\nwant %+v\ngot  %+v\nxml:\n%s", md, back, data)
	}
	again, err := back.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, again) {
		t.Errorf("second Marshal differs:\n%s\n---\n%s", data, again)
	}
}

// parseErrorCase is a broken document and text its parse error must contain.
type parseErrorCase struct {
	name, xml, want string
}

// assertParseErrors requires parse (called name in messages) to reject
// every test document, each a change of valid, with an error containing
// the wanted text.
func assertParseErrors[M any](t *testing.T, valid string, tests []parseErrorCase, name string, parse func([]byte) (M, error)) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.xml == valid {
				t.Fatal("test did not change the document")
			}
			_, err := parse([]byte(tc.xml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%s error = %v, want one containing %q", name, err, tc.want)
			}
		})
	}
}

// keys returns key of every entry of list; never nil.
func keys[U, K any](list []U, key func(U) K) []K {
	out := []K{}
	for _, u := range list {
		out = append(out, key(u))
	}
	return out
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// fixtureLogCategories returns the log categories of both representative
// descriptions, fresh on every call so that tests may edit them.
func fixtureLogCategories() []LogCategory {
	return []LogCategory{
		{Name: "logStatusError", Description: "Errors"},
		{Name: "logStatusWarning", Description: "Warnings"},
		{Name: "logEvents"},
	}
}

// fixtureExperiment returns the default experiment of both representative
// descriptions, fresh on every call.
func fixtureExperiment() *DefaultExperiment {
	return &DefaultExperiment{StartTime: 0, StopTime: 20, StepSize: 1e-3}
}
