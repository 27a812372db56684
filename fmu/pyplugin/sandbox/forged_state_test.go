package sandbox_test

import (
	"encoding/binary"
	"testing"

	"github.com/cablefmu/cablefmu/fmu/pyplugin/sandbox"
)

// A forged plugin state that names a class both as a data global and in a
// class attribute is refused, every time (the keys come in map order),
// without a panic and without changing the plugin's class.
func TestForgedClassGlobalRefused(t *testing.T) {
	it, err := newInterp(t, "class C:\n    x = 1\n\ndef step(sim):\n    pass\n", 1000)
	if err != nil {
		t.Fatal(err)
	}
	state, err := it.SaveState(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// state: uvarint 1, "C.x", tagInt varint(1), keptWork, keptDue.
	prefix := 1 + 1 + 3 + 1 + 1
	tail := state[prefix:]
	var f []byte
	f = binary.AppendUvarint(f, 2)
	f = sandbox.AppendString(f, "C")
	f = append(f, 3) // tagInt
	f = binary.AppendVarint(f, 5)
	f = sandbox.AppendString(f, "C.x")
	f = append(f, 3)
	f = binary.AppendVarint(f, 1)
	f = append(f, tail...)
	panics, accepted := 0, 0
	for k := 0; k < 50; k++ {
		it, _ := newInterp(t, "class C:\n    x = 1\n\ndef step(sim):\n    pass\n", 1000)
		func() {
			defer func() {
				if p := recover(); p != nil {
					panics++
					if panics == 1 {
						t.Logf("panic: %v", p)
					}
				}
			}()
			if err := it.LoadState(sandbox.NewReader(f), nil); err == nil {
				accepted++
			}
			if c, _ := it.Global("C"); c == nil || c.Type().Name != "type" {
				t.Errorf("class C became %v", c)
			}
		}()
	}
	if panics > 0 || accepted > 0 {
		t.Errorf("LoadState of a forged state panicked %d times and accepted it %d times in 50", panics, accepted)
	}
}
