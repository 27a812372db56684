// Package examples holds the example scenario of each model, one folder
// named for the model, embedded so that the cablefmu command offers them
// (cablefmu models NAME) where the source tree is not.
package examples

import (
	"embed"
	"fmt"
)

//go:embed massless/scenario.json rigid-cable/scenario.json mass-spring/scenario.json spline/scenario.json hmr-wire/scenario.json wire-hoist/scenario.json gantry-crane/scenario.json boom-crane/scenario.json
var scenarios embed.FS

// Scenario returns the example scenario of a model, by the model's name.
func Scenario(model string) ([]byte, error) {
	b, err := scenarios.ReadFile(model + "/scenario.json")
	if err != nil {
		return nil, fmt.Errorf("no example scenario of model %q", model)
	}
	return b, nil
}
