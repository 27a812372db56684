package wirehoist

import (
	"fmt"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Sketch implements fmu.Sketcher: the ground, the drum, the sheaves, the
// wire from the drum over them to the dead end, the hook block, the load
// and the boom tip.
func (s *simulation) Sketch() fmu.Sketch {
	var sk fmu.Sketch
	ho := s.ho
	spec := ho.Spec()
	if spec.Ground != nil {
		sk.Add(fmu.Ground, "ground", fmu.Point{0, 0, spec.Ground.Height})
	}
	sk.Circle("drum", port.Pt(ho.Drum.Body.Pos), ho.Drum.Radius)
	for _, sh := range ho.Sheaves {
		sk.Hull("", port.Pts(sh.Geometry.Vertices()))
	}
	sk.Add(fmu.Rope, fmt.Sprintf("wire, %d falls", spec.Falls), port.Pts(ho.Wire.Sample(400))...)
	sk.Box("hook block", port.Pt(ho.Hook()), port.Pt(spec.BlockSize))
	sk.Box(fmu.MassLabel("load", spec.LoadMass), port.Pt(ho.LoadCentre()), port.Pt(spec.LoadSize))
	sk.Add(fmu.Driven, "boom tip", port.Pt(ho.BoomTip.Pos))
	return sk
}
