package wirehoist_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

type zzlog struct{}

func (zzlog) Log(s fmu.Status, cat, msg string) { fmt.Printf("LOG %v %s: %.300s\n", s, cat, msg) }

func TestZZCoarse(t *testing.T) {
	dir, _ := filepath.Abs("../../../examples/wire-hoist")
	for _, c := range [][2]float64{{0.05, 2}, {0.1, 2}, {0.1, 5}, {0.1, 10}, {1.0 / 60, 10}} {
		h, v := c[0], c[1]
		fmt.Println("== h", h, "v", v)
		in, vr, st := plugintest.Start(t, dir, map[string]float64{"internalStep": h}, zzlog{})
		if st != fmu.OK {
			t.Log("start", st)
			continue
		}
		names := []string{}
		for n := range vr {
			names = append(names, n)
		}
		_ = names
		tm := 0.0
		for k := 0; k < 200; k++ {
			if k >= 20 {
				plugintest.Set(t, in, vr["suspension.vx"], v)
				plugintest.Set(t, in, vr["suspension.x"], v*(tm-20*h))
			}
			if st := in.DoStep(tm, h); st != fmu.OK {
				fmt.Println("h", h, "failed at", tm, st)
				break
			}
			tm += h
		}
	}
}
