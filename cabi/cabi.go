// Command cabi is the FMU binary: built with -buildmode=c-shared it exports
// the FMI 2.0 or FMI 3.0 C API of a cablefmu FMU (both sets of functions;
// the model description says which one an FMU declares). It is the only
// package that imports "C" and it is thin: it converts C arguments, finds
// the instance behind a handle, recovers panics and forwards to package
// fmu, where every decision lives.
//
// Handles: fmi2Component, fmi2FMUstate, fmi3Instance and fmi3FMUState are
// void pointers in C. Here they are the addresses of small blocks of the C
// heap that the library allocates for them, and Go code receives and
// returns them as integers (C.cablefmu_ref, uintptr_t), never as pointers:
// the garbage collector aborts the process when a stack slot of pointer
// type holds a value that is not a valid pointer (a small integer such as
// a runtime/cgo.Handle), and it ignores integers. A C heap address is also
// unique in the process while its block lives, so the handles of two FMUs
// loaded together (each with its own Go runtime) never coincide, and every
// function refuses a handle that is not a live instance or FMU state of its
// own (handleTable). On every platform the library is built for (x86-64
// and arm64: System V and Windows x64 calling conventions) a uintptr_t
// argument or result travels exactly as a void pointer does. The importer's
// environment values (fmi2ComponentEnvironment, fmi3InstanceEnvironment),
// which it may fill with anything, are carried the same way.
//
// Linking: the library is linked with -z nodelete (the Go linker does so
// for c-shared on Linux, and the exporter asks for it explicitly), so
// dlclose leaves it mapped. A Go runtime cannot be unloaded; without the flag a dlclose
// followed by a call from a still-running runtime thread would crash. Each
// load of the library from a different path starts another Go runtime in
// the process (about five threads and a few MB each): importers that
// unpack every run into a fresh folder should unpack once and reuse it.
package main

/*
#cgo CFLAGS: -O2 -Wall
#include <stdlib.h>
#include "fmi2_types.h"
#include "fmi3_types.h"
*/
import "C"

import (
	"runtime/debug"
	"strings"
	"unsafe"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// cLogger forwards an instance's messages to the importer's logger.
type cLogger struct {
	fn   C.fmi2CallbackLogger
	env  C.cablefmu_ref // the importer's value, opaque: never a Go pointer
	name string
}

// Log implements fmu.Logger. '#' is FMI's escape for value references in
// messages, so a literal one is doubled.
func (l *cLogger) Log(status fmu.Status, category, message string) {
	if l == nil || l.fn == nil {
		return
	}
	name := C.CString(l.name)
	cat := C.CString(category)
	msg := C.CString(strings.ReplaceAll(message, "#", "##"))
	defer C.free(unsafe.Pointer(name))
	defer C.free(unsafe.Pointer(cat))
	defer C.free(unsafe.Pointer(msg))
	C.cablefmu_log(l.fn, l.env, name, C.fmi2Status(status), cat, msg)
}

// cLogger3 forwards an FMI 3.0 instance's messages to its log callback.
type cLogger3 struct {
	fn  C.fmi3LogMessageCallback
	env C.cablefmu_ref // as cLogger.env
}

// Log implements fmu.Logger.
func (l *cLogger3) Log(status fmu.Status, category, message string) {
	if l == nil || l.fn == nil {
		return
	}
	cat := C.CString(category)
	msg := C.CString(message)
	defer C.free(unsafe.Pointer(cat))
	defer C.free(unsafe.Pointer(msg))
	C.cablefmu_log3(l.fn, l.env, C.fmi3Status(status), cat, msg)
}

// lookup returns the live instance behind a handle, or nil.
func lookup(c C.cablefmu_ref) *instance { return handles.instance(c) }

// guard turns a panic into fmi2Error, so that no Go panic ever unwinds into
// the importer. The instance, whose world may be half-stepped, goes to the
// error state with the panic logged.
func guard(inst **instance, fn string, status *C.fmi2Status) {
	if r := recover(); r != nil {
		*status = C.fmi2Error
		if *inst != nil {
			(*inst).fmu.Fail("%s: internal error: %v\n%s", fn, r, debug.Stack())
		}
	}
}

// with runs f on the instance behind c, guarded. A handle that is not a
// live instance of this FMU (NULL, freed, an FMU state, another FMU's)
// gets fmi2Error: there is no instance whose logger could say so.
func with(c C.cablefmu_ref, fn string, f func(inst *instance) fmu.Status) (status C.fmi2Status) {
	var inst *instance
	defer guard(&inst, fn, &status)
	if inst = lookup(c); inst == nil {
		return C.fmi2Error
	}
	return C.fmi2Status(f(inst))
}

// withFMU runs f on the fmu.Instance behind c, as with.
func withFMU(c C.cablefmu_ref, fn string, f func(in *fmu.Instance) fmu.Status) C.fmi2Status {
	return with(c, fn, func(inst *instance) fmu.Status { return f(inst.fmu) })
}

func goBool(b C.fmi2Boolean) bool { return b != 0 }

func cBool(b bool) C.fmi2Boolean {
	if b {
		return 1
	}
	return 0
}

// view returns the C array p of n elements as a Go slice of T (the Go type
// of the same size and layout); ok is false when n > 0 and p is NULL, or
// when n elements could not be an array in memory (a garbage count).
func view[T any](p unsafe.Pointer, n C.size_t) (s []T, ok bool) {
	if n == 0 {
		return nil, true
	}
	var zero T
	if p == nil || uint64(n) > maxArrayBytes/uint64(max(unsafe.Sizeof(zero), 1)) {
		return nil, false
	}
	return unsafe.Slice((*T)(p), int(n)), true
}

// cStrings returns the C array p of n C strings as Go strings; ok as for
// view.
func cStrings(p unsafe.Pointer, n C.size_t) ([]string, bool) {
	ptrs, ok := view[*C.char](p, n)
	if !ok {
		return nil, false
	}
	out := make([]string, len(ptrs))
	for i, s := range ptrs {
		out[i] = C.GoString(s)
	}
	return out, true
}

// maxArrayBytes bounds the size of an array an importer can hand over: no
// process has more address space (x86-64 and arm64 user space: 2⁴⁷ bytes).
const maxArrayBytes = 1 << 47

func registry() (*fmu.Registry, error) { return plugins.Builtin() }

// main is required by -buildmode=c-shared and never runs.
func main() {}
