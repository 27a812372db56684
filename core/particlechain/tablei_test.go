package particlechain

import "testing"

// paperTableI is [SL08] Table I: model, ε_d (m/N), ε_x, and the largest
// stable mass ratio the paper found.
var paperTableI = []struct {
	Model      Model
	EpsD, EpsX float64
	Paper      float64
}{
	{LinkChain, 1e-8, 0, 1e2},
	{MasslessCable, 1e-8, 1e-9, 1e2},
	{LoadEnforcement, 1e-8, 1e-9, 1e3},
	{LoadEnforcement, 1e-8, 1e-12, 1e7},
	{LoadEnforcement, 1e-18, 1e-22, 1e15},
	{TruncatedCable, 1e-8, 1e-9, 1e2},
	{AngularChain, 1e-8, 1e-4, 1e3},
	{AngularChain, 1e-11, 1e-9, 1e7},
	{AngularChain, 1e-18, 1e-17, 1e15},
}

// Table I: the link chain (a) and the massless models (b), (d) go
// unstable above 1e2 as in the paper; load enforcement (c) and the angular
// chain (e) stay stable at least to the paper's ratios with the paper's ε
// (1e7 or better for the middle rows).
func TestTableI(t *testing.T) {
	for _, row := range paperTableI {
		got, err := MaxStableRatio(TableI(row.Model, row.EpsD, row.EpsX), 17)
		if err != nil {
			t.Fatal(err)
		}
		switch row.Model {
		case LinkChain, MasslessCable, TruncatedCable:
			if got != row.Paper {
				t.Errorf("model (%c) ε_d %g ε_x %g: stable to %g, the paper to %g: want the same limit", row.Model, row.EpsD, row.EpsX, got, row.Paper)
			}
		default:
			if got < row.Paper {
				t.Errorf("model (%c) ε_d %g ε_x %g: stable to %g, want at least the paper's %g", row.Model, row.EpsD, row.EpsX, got, row.Paper)
			}
		}
		t.Logf("Table I model (%c) ε_d %-6g ε_x %-6g: stable to %-6g (paper %g)", row.Model, row.EpsD, row.EpsX, got, row.Paper)
	}
}
