package fmu_test

import (
	"go/build"
	"strings"
	"testing"
)

// The runtime knows FMI, instances, values and states, nothing of bodies:
// neither it nor the Python sandbox imports a core package, directly or
// through another (only the model plugins and the plugin binding reach
// the physics).
func TestRuntimeImportsNoPhysics(t *testing.T) {
	const module = "github.com/cablefmu/cablefmu/"
	for _, root := range []string{"fmu", "fmu/pyplugin/sandbox"} {
		seen := map[string]bool{}
		var walk func(pkg string, path []string)
		walk = func(pkg string, path []string) {
			if seen[pkg] {
				return
			}
			seen[pkg] = true
			p, err := build.Import(module+pkg, "", 0)
			if err != nil {
				t.Fatalf("%s: %v", pkg, err)
			}
			for _, imp := range p.Imports {
				rel, ok := strings.CutPrefix(imp, module)
				if !ok {
					continue
				}
				if strings.HasPrefix(rel, "core/") {
					t.Errorf("%s imports %s (through %s)", root, rel, strings.Join(append(path, pkg), " → "))
					continue
				}
				walk(rel, append(path, pkg))
			}
		}
		walk(root, nil)
	}
}
