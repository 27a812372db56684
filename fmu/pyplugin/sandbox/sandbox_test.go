package sandbox_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-python/gpython/py"

	"github.com/cablefmu/cablefmu/fmu/pyplugin/sandbox"
)

// newInterp prepares and runs text as plugin file p.py with an operations
// budget of ops and no API.
func newInterp(t *testing.T, text string, ops float64) (*sandbox.Interp, error) {
	t.Helper()
	src, err := sandbox.Prepare("p.py", []byte(text), sandbox.NewVocabulary(nil, nil))
	if err != nil {
		return nil, err
	}
	it, err := sandbox.New(src, sandbox.NewLimits("p", ops, 8, 10), nil)
	if err != nil {
		t.Fatal(err)
	}
	return it, it.Run()
}

// The sandbox on its own: a misspelt name is refused at Prepare with its
// line; an endless loop in a hook is stopped at the operations budget at
// the same line on every call, naming the parameter; print goes to
// TakePrinted; SaveState and LoadState restore a global bitwise.
func TestSandboxAlone(t *testing.T) {
	_, err := newInterp(t, "x = 1\ny = lenn(x)\n", 1000)
	var ce sandbox.CheckError
	if !errors.As(err, &ce) || ce[0].Line != 2 || !strings.Contains(ce[0].Msg, "lenn") {
		t.Fatalf("misspelt name: %v, want a diagnostic at line 2 naming lenn", err)
	}

	it, err := newInterp(t, "total = 0.1\ndef spin(x):\n    global total\n    print('spinning')\n    while True:\n        total += 1\n", 1000)
	if err != nil {
		t.Fatal(err)
	}
	spin, err := it.Hook("spin")
	if err != nil || spin == nil {
		t.Fatalf("hook spin: %v", err)
	}
	var msgs []string
	for range 2 {
		_, err := it.Call("spin", spin, py.None)
		if err == nil || !strings.Contains(err.Error(), "budget of 1000 operations (parameter p.operations)") {
			t.Fatalf("endless loop: %v, want stopped at the operations budget", err)
		}
		msgs = append(msgs, err.Error())
	}
	if msgs[0] != msgs[1] || !strings.HasSuffix(msgs[0], "stopped at p.py:6") {
		t.Errorf("the two stops differ or do not name p.py:6:\n%s\n%s", msgs[0], msgs[1])
	}
	if p := it.TakePrinted(); len(p) != 2 || p[0] != "spinning" {
		t.Errorf("printed %q, want two lines 'spinning'", p)
	}

	state, err := it.SaveState(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := it.Global("total")
	if _, err := it.Call("spin", spin, py.None); err == nil {
		t.Fatal("spin returned")
	}
	r := sandbox.NewReader(state)
	if err := it.LoadState(r, nil); err != nil || r.Rest() != 0 {
		t.Fatalf("LoadState: %v, %d bytes left", err, r.Rest())
	}
	if after, _ := it.Global("total"); after != before {
		t.Errorf("total %v after the restore, want %v", after, before)
	}
}
