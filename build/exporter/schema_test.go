package exporter

import (
	"bytes"
	"os"
	"testing"
)

// The scenario schema in build/scenario.schema.json is the one the Go
// types give: a config type that changes without the schema fails here.
func TestSchemaIsCurrent(t *testing.T) {
	want, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("../scenario.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatalf("build/scenario.schema.json differs from the Go types' schema: run go run ./build schema > build/scenario.schema.json")
	}
}
