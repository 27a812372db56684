package wirehoist_test

import (
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

// BenchmarkRestore is the cost of restoring the example's saved state and
// stepping once from it, as a master iterating a communication step does.
func BenchmarkRestore(b *testing.B) {
	in, _ := plugintest.New(b, "../../../examples/wire-hoist", nil)
	const h = 1.0 / 60
	tm := 0.0
	for i := 0; i < 60; i++ {
		if st := in.DoStep(tm, h); st != fmu.OK {
			b.Fatalf("step: %v", st)
		}
		tm += h
	}
	s, st := in.GetState(nil)
	if st != fmu.OK {
		b.Fatal("get state")
	}
	b.Run("restore", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if st := in.SetState(s); st != fmu.OK {
				b.Fatal("set state")
			}
		}
	})
	b.Run("restore+step", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if st := in.SetState(s); st != fmu.OK {
				b.Fatal("set state")
			}
			if st := in.DoStep(tm, h); st != fmu.OK {
				b.Fatal("step")
			}
		}
	})
	var saved *fmu.Snapshot
	b.Run("save+step", func(b *testing.B) {
		if st := in.SetState(s); st != fmu.OK {
			b.Fatal("set state")
		}
		t := tm
		for i := 0; i < b.N; i++ {
			if _, st := in.GetState(saved); st != fmu.OK {
				b.Fatal("get state")
			}
			if st := in.DoStep(t, h); st != fmu.OK {
				b.Fatal("step")
			}
			t += h
		}
	})
}
