package main

/*
#include "fmi2_types.h"
*/
import "C"

import (
	"fmt"
	"sync"

	"github.com/cablefmu/cablefmu/fmu"
)

// handleTable maps the handles the importer holds to the instances and FMU
// states they name. It is the library's only process-wide state: the C API
// names instances by handles alone.
//
// A handle is the address of a 16-byte block of the C heap, allocated for
// it (cablefmu_new_handle). Such an address is unique among the live blocks
// of every library in the process, so a handle of another FMU (another
// copy of the Go runtime, whose tables start afresh) is never one of ours,
// and it is a valid pointer, should it ever reach a pointer-typed variable.
// In Go a handle is only ever an integer, C.cablefmu_ref: the exported
// functions take and return it as such, so that no Go stack slot of
// pointer type holds a value that is not a pointer into memory the garbage
// collector may scan — a small integer there (a runtime/cgo.Handle is 1,
// 2, 3, …) aborts the process when the collector or a stack copy meets it.
// A released handle's block is kept for the next retiredHandles releases
// before it is freed, so that a freed handle used again is refused rather
// than taken for a new instance that the C heap gave the same address.
type handleTable struct {
	mu   sync.Mutex
	live map[C.cablefmu_ref]*handleEntry
	// retired holds released handles not yet freed, a ring from next.
	retired [retiredHandles]C.cablefmu_ref
	next    int
}

// retiredHandles is how many released handles stay allocated before their
// blocks go back to the C heap.
const retiredHandles = 4096

// handleEntry is what a handle names: an instance, or an FMU state and the
// instance it was taken from.
type handleEntry struct {
	inst  *instance
	state *fmu.Snapshot // nil for an instance
}

// instance is what an instance handle names.
type instance struct {
	fmu *fmu.Instance
	// states holds the handles of the instance's FMU states, and freed
	// says the instance's handle was released (both guarded by the table's
	// lock): freeing the instance frees its states, and none are added
	// after.
	states map[C.cablefmu_ref]bool
	freed  bool
}

var handles = handleTable{live: make(map[C.cablefmu_ref]*handleEntry)}

// add returns a new handle for e, or an error when the C heap is full.
func (t *handleTable) add(e *handleEntry) (C.cablefmu_ref, error) {
	h := C.cablefmu_new_handle()
	if h == 0 {
		return 0, fmt.Errorf("out of memory for a handle")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if e.state != nil {
		if e.inst.freed { // freed by another thread, or by a logger callback, meanwhile
			C.cablefmu_free_handle(h)
			return 0, fmt.Errorf("the instance was freed")
		}
		e.inst.states[h] = true
	}
	t.live[h] = e
	return h, nil
}

// newInstance returns the handle of a new instance.
func (t *handleTable) newInstance(in *fmu.Instance) (C.cablefmu_ref, error) {
	return t.add(&handleEntry{inst: &instance{fmu: in, states: make(map[C.cablefmu_ref]bool)}})
}

// newState returns the handle of an FMU state of inst.
func (t *handleTable) newState(inst *instance, s *fmu.Snapshot) (C.cablefmu_ref, error) {
	return t.add(&handleEntry{inst: inst, state: s})
}

// instance returns the live instance of handle h, or nil.
func (t *handleTable) instance(h C.cablefmu_ref) *instance {
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.live[h]; e != nil && e.state == nil {
		return e.inst
	}
	return nil
}

// state returns the FMU state of handle h taken from inst, or an error
// saying why h is not one.
func (t *handleTable) state(inst *instance, h C.cablefmu_ref) (*fmu.Snapshot, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stateLocked(inst, h)
}

// stateLocked is state for a caller that holds the lock.
func (t *handleTable) stateLocked(inst *instance, h C.cablefmu_ref) (*fmu.Snapshot, error) {
	e := t.live[h]
	switch {
	case h == 0:
		return nil, fmt.Errorf("the FMU state is NULL")
	case e == nil:
		return nil, fmt.Errorf("%#x is not a live FMU state of this FMU (freed, or never one)", uint64(h))
	case e.state == nil:
		return nil, fmt.Errorf("%#x is an instance, not an FMU state", uint64(h))
	case e.inst != inst:
		return nil, fmt.Errorf("%#x is an FMU state of instance %q, not of this one", uint64(h), e.inst.fmu.Name())
	}
	return e.state, nil
}

// freeState releases the FMU state handle h of inst.
// The check and the release are one critical section: two threads
// freeing the same state release it once.
func (t *handleTable) freeState(inst *instance, h C.cablefmu_ref) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, err := t.stateLocked(inst, h); err != nil {
		return err
	}
	delete(inst.states, h)
	t.release(h)
	return nil
}

// freeInstance releases the instance handle h and the handles of its FMU
// states; it reports false when h is not a live instance.
func (t *handleTable) freeInstance(h C.cablefmu_ref) (*instance, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.live[h]
	if e == nil || e.state != nil {
		return nil, false
	}
	for s := range e.inst.states {
		t.release(s)
	}
	e.inst.states, e.inst.freed = nil, true
	t.release(h)
	return e.inst, true
}

// release forgets the live handle h and retires its block; the caller
// holds the lock. A handle that is not live is left alone: its block was
// retired already, and retiring it twice would free it twice.
func (t *handleTable) release(h C.cablefmu_ref) {
	if _, ok := t.live[h]; !ok {
		return
	}
	delete(t.live, h)
	if old := t.retired[t.next]; old != 0 {
		C.cablefmu_free_handle(old)
	}
	t.retired[t.next] = h
	t.next = (t.next + 1) % retiredHandles
}
