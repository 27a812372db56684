package main

import (
	"fmt"
	"strings"

	"github.com/cablefmu/cablefmu/fmu"
)

// nearest says which of names a mistyped name most likely meant, or lists
// them when none is close.
func nearest(name string, names []string) string {
	if n, ok := fmu.Nearest(name, names); ok {
		return fmt.Sprintf("did you mean %q?", n)
	}
	return "want one of " + strings.Join(names, ", ")
}
