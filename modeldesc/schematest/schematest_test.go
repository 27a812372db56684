package schematest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// recorder is a testing.TB that records how a helper ended instead of
// ending the real test. Skip and fatal calls stop the helper like the real
// ones do (runtime.Goexit), so it must run in its own goroutine.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func run(f func(tb testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

// TestPolicy3 checks the skip-or-fail policy for a schema folder that has
// the FMI 2.0 schema but not the FMI 3.0 one.
func TestPolicy3(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "2.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "2.0", "fmi2ModelDescription.xsd"), []byte("<x/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(modeldesc.SchemaEnv, dir)
	xml := filepath.Join(dir, "modelDescription.xml")
	for _, ci := range []string{"", "true"} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			r := run(func(tb testing.TB) { Validate3(tb, xml) })
			if r.skipped == r.failed {
				t.Fatalf("skipped=%v failed=%v, want exactly one", r.skipped, r.failed)
			}
			if wantFail := ci == "true"; r.failed != wantFail {
				t.Errorf("CI=%q: failed=%v, want %v (%s)", ci, r.failed, wantFail, r.msg)
			}
			// Without xmllint Require already stops the helper; either way
			// the message names what is missing.
			if !strings.Contains(r.msg, "schema") && !strings.Contains(r.msg, "xmllint") {
				t.Errorf("message does not say what is missing: %s", r.msg)
			}
		})
	}
}
