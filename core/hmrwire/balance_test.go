package hmrwire

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// TestEmptyHookHangsLevel: an empty hook (1 kg on the example's 500 kg
// block, its centre of mass 0.3 m below the axles) on one to six falls in
// a row, on two to five side by side and on three and five crossed,
// hangs level and still for 20 s: the block tilts by at most 0.04 rad
// (0.027 measured, on five falls in a row) and moves by at most 2 cm
// (1.1 cm). On odd falls the hook sheaves' weight lay to one side of the
// falls' pull (an 80 kg sheave a radius aside on three falls in a row)
// and, side by side, the dead end pulled a radius aside of the axles:
// the block hung tilted by 0.21 rad on three falls in a row, 0.40 on
// five and 0.47 side by side on three, and rocked between level and
// twice that for as long as it hung; side by side, the falls leaned
// across the boom and the block swung by 3.7 to 5.5 cm. The block now
// balances its sheaves (HoistSpec.BlockMass) and hangs under the falls'
// mean, the dead end on its axles' line; a block too light to balance
// its sheaves within itself is refused.
func TestEmptyHookHangsLevel(t *testing.T) {
	type reeving struct {
		falls         int
		side, crossed bool
	}
	var cases []reeving
	for n := 1; n <= 6; n++ {
		cases = append(cases, reeving{falls: n})
	}
	cases = append(cases, reeving{2, true, false}, reeving{3, true, false}, reeving{4, true, false}, reeving{5, true, false}, reeving{3, false, true}, reeving{5, false, true})
	for _, c := range cases {
		spec := craneSpec(c.falls, 40)
		spec.Resolution.MaxMassNodes = 50
		spec.Rope.Flexible = true
		spec.LoadMass, spec.BlockBelow, spec.SideBySide, spec.CrossedHook = 1, 0.3, c.side, c.crossed
		ho := newCrane(t, spec)
		start := ho.Block.Pos
		tilt, moved := 0.0, 0.0
		ho.run(t, 20, func() {
			tilt = max(tilt, math.Acos(min(1, ho.Block.Rot.Rotate(geom.V(0, 0, 1)).Z)))
			moved = max(moved, ho.Block.Pos.Sub(start).Norm())
		})
		t.Logf("%+v: tilted by up to %.4f rad, moved by up to %.4f m", c, tilt, moved)
		if tilt > 0.04 || moved > 0.02 {
			t.Errorf("%+v: the empty hook tilted by up to %.4f rad and moved by %.4f m in 20 s; want it level within 0.04 rad and still within 2 cm", c, tilt, moved)
		}
	}
	spec := craneSpec(3, 40)
	spec.BlockMass = 5
	if _, err := NewHoist(spec); !errors.Is(err, ErrHoist) || !strings.Contains(err.Error(), "cannot balance its hook sheaves") {
		t.Errorf("a 5 kg block under an 80 kg hook sheave a radius aside: %v, want it refused", err)
	}
}
