package main

/*
#include <stdlib.h>
#include "fmi2_types.h"
*/
import "C"

import (
	"bytes"
	"fmt"
	"unsafe"

	"github.com/cablefmu/cablefmu/fmu"
)

//export fmi2GetTypesPlatform
func fmi2GetTypesPlatform() *C.char { return (*C.char)(unsafe.Pointer(C.cablefmu_types_platform())) }

//export fmi2GetVersion
func fmi2GetVersion() *C.char { return (*C.char)(unsafe.Pointer(C.cablefmu_version())) }

//export fmi2Instantiate
func fmi2Instantiate(instanceName C.fmi2String, fmuType C.fmi2Type, guid C.fmi2String, resourceLocation C.fmi2String,
	functions *C.fmi2CallbackFunctions, visible C.fmi2Boolean, loggingOn C.fmi2Boolean) (handle C.cablefmu_ref) {
	logger := &cLogger{fn: C.cablefmu_callbacks_logger(functions), env: C.cablefmu_callbacks_env(functions)}
	if instanceName != nil {
		logger.name = C.GoString(instanceName)
	}
	fail := func(format string, args ...any) C.cablefmu_ref {
		logger.Log(fmu.Error, "logStatusError", "fmi2Instantiate: "+fmt.Sprintf(format, args...))
		return 0
	}
	defer func() {
		if r := recover(); r != nil {
			handle = fail("internal error: %v", r)
		}
	}()
	if instanceName == nil || logger.name == "" {
		return fail("instance name is missing")
	}
	if fmuType != C.fmi2CoSimulation {
		return fail("this FMU supports Co-Simulation only, not Model Exchange")
	}
	if guid == nil {
		return fail("GUID is missing")
	}
	if resourceLocation == nil {
		return fail("fmuResourceLocation is missing")
	}
	reg, err := registry()
	if err != nil {
		return fail("%v", err)
	}
	in, err := fmu.Instantiate(fmu.Config{
		InstanceName:     logger.name,
		GUID:             C.GoString(guid),
		ResourceLocation: C.GoString(resourceLocation),
		Logger:           logger,
		LoggingOn:        goBool(loggingOn),
		Registry:         reg,
	})
	if err != nil {
		return fail("%v", err)
	}
	h, err := handles.newInstance(in)
	if err != nil {
		return fail("%v", err)
	}
	return h
}

//export fmi2FreeInstance
func fmi2FreeInstance(c C.cablefmu_ref) {
	defer func() { _ = recover() }() // FreeInstance has no status to report a panic with
	// A handle that is not a live instance of ours (NULL, freed, an FMU
	// state, another FMU's) frees nothing: an FMU state passed here stays.
	handles.freeInstance(c)
}

//export fmi2SetDebugLogging
func fmi2SetDebugLogging(c C.cablefmu_ref, loggingOn C.fmi2Boolean, n C.size_t, categories *C.fmi2String) C.fmi2Status {
	return withFMU(c, "fmi2SetDebugLogging", func(in *fmu.Instance) fmu.Status {
		cats, ok := cStrings(unsafe.Pointer(categories), n)
		if !ok {
			return in.Reject("fmi2SetDebugLogging", "categories is NULL with nCategories = %d, or longer than any array in memory", uint64(n))
		}
		return in.SetDebugLogging(goBool(loggingOn), cats)
	})
}

//export fmi2SetupExperiment
func fmi2SetupExperiment(c C.cablefmu_ref, toleranceDefined C.fmi2Boolean, tolerance, start C.fmi2Real, stopDefined C.fmi2Boolean, stop C.fmi2Real) C.fmi2Status {
	return withFMU(c, "fmi2SetupExperiment", func(in *fmu.Instance) fmu.Status {
		return in.SetupExperiment(goBool(toleranceDefined), float64(tolerance), float64(start), goBool(stopDefined), float64(stop))
	})
}

//export fmi2EnterInitializationMode
func fmi2EnterInitializationMode(c C.cablefmu_ref) C.fmi2Status {
	return withFMU(c, "fmi2EnterInitializationMode", (*fmu.Instance).EnterInitializationMode)
}

//export fmi2ExitInitializationMode
func fmi2ExitInitializationMode(c C.cablefmu_ref) C.fmi2Status {
	return withFMU(c, "fmi2ExitInitializationMode", (*fmu.Instance).ExitInitializationMode)
}

//export fmi2Terminate
func fmi2Terminate(c C.cablefmu_ref) C.fmi2Status {
	return withFMU(c, "fmi2Terminate", (*fmu.Instance).Terminate)
}

//export fmi2Reset
func fmi2Reset(c C.cablefmu_ref) C.fmi2Status {
	return withFMU(c, "fmi2Reset", (*fmu.Instance).Reset)
}

func nullArgs(in *fmu.Instance, fn string) fmu.Status {
	return in.Reject(fn, "an array argument is NULL with a non-zero length, or longer than any array in memory")
}

//export fmi2GetReal
func fmi2GetReal(c C.cablefmu_ref, vr *C.fmi2ValueReference, n C.size_t, value *C.fmi2Real) C.fmi2Status {
	return withFMU(c, "fmi2GetReal", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		out, ok2 := view[float64](unsafe.Pointer(value), n)
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi2GetReal")
		}
		return in.GetReal(refs, out)
	})
}

//export fmi2SetReal
func fmi2SetReal(c C.cablefmu_ref, vr *C.fmi2ValueReference, n C.size_t, value *C.fmi2Real) C.fmi2Status {
	return withFMU(c, "fmi2SetReal", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		vals, ok2 := view[float64](unsafe.Pointer(value), n)
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi2SetReal")
		}
		return in.SetReal(refs, vals)
	})
}

// The FMU has no String variables: their accessors accept empty requests
// and refuse any value reference.
func noneOfType(c C.cablefmu_ref, fn string, vr *C.fmi2ValueReference, n C.size_t, mask fmu.State) C.fmi2Status {
	return withFMU(c, fn, func(in *fmu.Instance) fmu.Status {
		refs, ok := view[uint32](unsafe.Pointer(vr), n)
		if !ok {
			return nullArgs(in, fn)
		}
		return in.CheckEmpty(fn, refs, mask)
	})
}

//export fmi2GetInteger
func fmi2GetInteger(c C.cablefmu_ref, vr *C.fmi2ValueReference, n C.size_t, value *C.fmi2Integer) C.fmi2Status {
	return withFMU(c, "fmi2GetInteger", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		out, ok2 := view[int32](unsafe.Pointer(value), n)
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi2GetInteger")
		}
		return in.GetInteger(refs, out)
	})
}

//export fmi2GetBoolean
func fmi2GetBoolean(c C.cablefmu_ref, vr *C.fmi2ValueReference, n C.size_t, value *C.fmi2Boolean) C.fmi2Status {
	return withFMU(c, "fmi2GetBoolean", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		out, ok2 := view[int32](unsafe.Pointer(value), n) // fmi2Boolean is an int
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi2GetBoolean")
		}
		got := make([]bool, len(refs))
		st := in.GetBoolean(refs, got)
		if st == fmu.OK {
			putBools(out, got)
		}
		return st
	})
}

//export fmi2GetString
func fmi2GetString(c C.cablefmu_ref, vr *C.fmi2ValueReference, n C.size_t, value *C.fmi2String) C.fmi2Status {
	return noneOfType(c, "fmi2GetString", vr, n, fmu.Readable)
}

//export fmi2SetInteger
func fmi2SetInteger(c C.cablefmu_ref, vr *C.fmi2ValueReference, n C.size_t, value *C.fmi2Integer) C.fmi2Status {
	return withFMU(c, "fmi2SetInteger", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		vals, ok2 := view[int32](unsafe.Pointer(value), n)
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi2SetInteger")
		}
		return in.SetInteger(refs, vals)
	})
}

//export fmi2SetBoolean
func fmi2SetBoolean(c C.cablefmu_ref, vr *C.fmi2ValueReference, n C.size_t, value *C.fmi2Boolean) C.fmi2Status {
	return withFMU(c, "fmi2SetBoolean", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		vals, ok2 := view[int32](unsafe.Pointer(value), n) // fmi2Boolean is an int: any nonzero is true
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi2SetBoolean")
		}
		return in.SetBoolean(refs, bools(vals))
	})
}

//export fmi2SetString
func fmi2SetString(c C.cablefmu_ref, vr *C.fmi2ValueReference, n C.size_t, value *C.fmi2String) C.fmi2Status {
	return noneOfType(c, "fmi2SetString", vr, n, fmu.Writable)
}

// bools reads C booleans (an int in FMI 2.0, a byte in 3.0): any nonzero
// is true.
func bools[T int32 | uint8](vals []T) []bool {
	bs := make([]bool, len(vals))
	for k, v := range vals {
		bs[k] = v != 0
	}
	return bs
}

// putBools writes booleans as C booleans: 1 for true, 0 for false.
func putBools[T int32 | uint8](dst []T, bs []bool) {
	for k, b := range bs {
		dst[k] = 0
		if b {
			dst[k] = 1
		}
	}
}

func unsupported(c C.cablefmu_ref, fn, why string) C.fmi2Status {
	return withFMU(c, fn, func(in *fmu.Instance) fmu.Status { return in.Unsupported(fn, why) })
}

const coSimOnly = "this FMU supports Co-Simulation only (no ModelExchange element)"

// refuseState logs why a handle is not an FMU state of the instance.
func refuseState(inst *instance, fn string, err error) fmu.Status {
	return inst.fmu.Reject(fn, "%v", err)
}

//export fmi2GetFMUstate
func fmi2GetFMUstate(c C.cablefmu_ref, state *C.cablefmu_ref) C.fmi2Status {
	return with(c, "fmi2GetFMUstate", func(inst *instance) fmu.Status {
		if state == nil {
			return inst.fmu.Reject("fmi2GetFMUstate", "FMUstate is NULL")
		}
		var prev *fmu.Snapshot
		if *state != 0 {
			var err error
			if prev, err = handles.state(inst, *state); err != nil {
				return refuseState(inst, "fmi2GetFMUstate", fmt.Errorf("*FMUstate: %w", err))
			}
		}
		s, st := inst.fmu.GetState(prev)
		if st == fmu.OK && prev == nil {
			h, err := handles.newState(inst, s)
			if err != nil {
				return inst.fmu.Reject("fmi2GetFMUstate", "%v", err)
			}
			*state = h
		}
		return st
	})
}

//export fmi2SetFMUstate
func fmi2SetFMUstate(c C.cablefmu_ref, state C.cablefmu_ref) C.fmi2Status {
	return with(c, "fmi2SetFMUstate", func(inst *instance) fmu.Status {
		s, err := handles.state(inst, state)
		if err != nil {
			return refuseState(inst, "fmi2SetFMUstate", err)
		}
		return inst.fmu.SetState(s)
	})
}

//export fmi2FreeFMUstate
func fmi2FreeFMUstate(c C.cablefmu_ref, state *C.cablefmu_ref) C.fmi2Status {
	return with(c, "fmi2FreeFMUstate", func(inst *instance) fmu.Status {
		if state == nil || *state == 0 {
			return fmu.OK // nothing to free
		}
		if err := handles.freeState(inst, *state); err != nil {
			return refuseState(inst, "fmi2FreeFMUstate", fmt.Errorf("*FMUstate: %w", err))
		}
		*state = 0
		return fmu.OK
	})
}

//export fmi2SerializedFMUstateSize
func fmi2SerializedFMUstateSize(c C.cablefmu_ref, state C.cablefmu_ref, size *C.size_t) C.fmi2Status {
	return with(c, "fmi2SerializedFMUstateSize", func(inst *instance) fmu.Status {
		if size == nil {
			return inst.fmu.Reject("fmi2SerializedFMUstateSize", "size is NULL")
		}
		s, err := handles.state(inst, state)
		if err != nil {
			return refuseState(inst, "fmi2SerializedFMUstateSize", err)
		}
		*size = C.size_t(len(s.Serialize()))
		return fmu.OK
	})
}

//export fmi2SerializeFMUstate
func fmi2SerializeFMUstate(c C.cablefmu_ref, state C.cablefmu_ref, data *C.fmi2Byte, size C.size_t) C.fmi2Status {
	return with(c, "fmi2SerializeFMUstate", func(inst *instance) fmu.Status {
		if data == nil {
			return inst.fmu.Reject("fmi2SerializeFMUstate", "the buffer is NULL")
		}
		s, err := handles.state(inst, state)
		if err != nil {
			return refuseState(inst, "fmi2SerializeFMUstate", err)
		}
		b := s.Serialize()
		if uint64(size) < uint64(len(b)) {
			return inst.fmu.Reject("fmi2SerializeFMUstate", "buffer of %d bytes, the state needs %d (fmi2SerializedFMUstateSize)", uint64(size), len(b))
		}
		copy(unsafe.Slice((*byte)(unsafe.Pointer(data)), len(b)), b)
		return fmu.OK
	})
}

//export fmi2DeSerializeFMUstate
func fmi2DeSerializeFMUstate(c C.cablefmu_ref, data *C.fmi2Byte, size C.size_t, state *C.cablefmu_ref) C.fmi2Status {
	return with(c, "fmi2DeSerializeFMUstate", func(inst *instance) fmu.Status {
		if data == nil || state == nil {
			return inst.fmu.Reject("fmi2DeSerializeFMUstate", "the buffer or FMUstate is NULL")
		}
		blob, ok := view[byte](unsafe.Pointer(data), size)
		if !ok {
			return inst.fmu.Reject("fmi2DeSerializeFMUstate", "size %d: no array in memory is that large", uint64(size))
		}
		// Only the header is read until the length it declares matches
		// the caller's size: a size larger than the buffer must not make
		// us read (hash) past it. Then the bytes are copied, so that the
		// checksum and the numbers read after it are of the same data.
		want, err := fmu.SerializedSize(blob[:min(len(blob), fmu.StateHeaderSize)])
		if err != nil {
			return inst.fmu.Reject("fmi2DeSerializeFMUstate", "%v", err)
		}
		if want != uint64(size) {
			return inst.fmu.Reject("fmi2DeSerializeFMUstate", "size %d, but the state's header declares %d bytes: a buffer of another length, or damaged", uint64(size), want)
		}
		s, err := inst.fmu.Deserialize(bytes.Clone(blob))
		if err != nil {
			return inst.fmu.Reject("fmi2DeSerializeFMUstate", "%v", err)
		}
		h, err := handles.newState(inst, s)
		if err != nil {
			return inst.fmu.Reject("fmi2DeSerializeFMUstate", "%v", err)
		}
		*state = h
		return fmu.OK
	})
}

//export fmi2GetDirectionalDerivative
func fmi2GetDirectionalDerivative(c C.cablefmu_ref, unknown *C.fmi2ValueReference, nUnknown C.size_t,
	known *C.fmi2ValueReference, nKnown C.size_t, dvKnown *C.fmi2Real, dvUnknown *C.fmi2Real) C.fmi2Status {
	return unsupported(c, "fmi2GetDirectionalDerivative", fmu.NoDirectionalDerivatives)
}

//export fmi2EnterEventMode
func fmi2EnterEventMode(c C.cablefmu_ref) C.fmi2Status {
	return unsupported(c, "fmi2EnterEventMode", coSimOnly)
}

//export fmi2NewDiscreteStates
func fmi2NewDiscreteStates(c C.cablefmu_ref, info *C.fmi2EventInfo) C.fmi2Status {
	return unsupported(c, "fmi2NewDiscreteStates", coSimOnly)
}

//export fmi2EnterContinuousTimeMode
func fmi2EnterContinuousTimeMode(c C.cablefmu_ref) C.fmi2Status {
	return unsupported(c, "fmi2EnterContinuousTimeMode", coSimOnly)
}

//export fmi2CompletedIntegratorStep
func fmi2CompletedIntegratorStep(c C.cablefmu_ref, noSetPrior C.fmi2Boolean, enterEventMode, terminate *C.fmi2Boolean) C.fmi2Status {
	return unsupported(c, "fmi2CompletedIntegratorStep", coSimOnly)
}

//export fmi2SetTime
func fmi2SetTime(c C.cablefmu_ref, t C.fmi2Real) C.fmi2Status {
	return unsupported(c, "fmi2SetTime", coSimOnly)
}

//export fmi2SetContinuousStates
func fmi2SetContinuousStates(c C.cablefmu_ref, x *C.fmi2Real, n C.size_t) C.fmi2Status {
	return unsupported(c, "fmi2SetContinuousStates", coSimOnly)
}

//export fmi2GetDerivatives
func fmi2GetDerivatives(c C.cablefmu_ref, dx *C.fmi2Real, n C.size_t) C.fmi2Status {
	return unsupported(c, "fmi2GetDerivatives", coSimOnly)
}

//export fmi2GetEventIndicators
func fmi2GetEventIndicators(c C.cablefmu_ref, z *C.fmi2Real, n C.size_t) C.fmi2Status {
	return unsupported(c, "fmi2GetEventIndicators", coSimOnly)
}

//export fmi2GetContinuousStates
func fmi2GetContinuousStates(c C.cablefmu_ref, x *C.fmi2Real, n C.size_t) C.fmi2Status {
	return unsupported(c, "fmi2GetContinuousStates", coSimOnly)
}

//export fmi2GetNominalsOfContinuousStates
func fmi2GetNominalsOfContinuousStates(c C.cablefmu_ref, x *C.fmi2Real, n C.size_t) C.fmi2Status {
	return unsupported(c, "fmi2GetNominalsOfContinuousStates", coSimOnly)
}

//export fmi2SetRealInputDerivatives
func fmi2SetRealInputDerivatives(c C.cablefmu_ref, vr *C.fmi2ValueReference, n C.size_t, order *C.fmi2Integer, value *C.fmi2Real) C.fmi2Status {
	return withFMU(c, "fmi2SetRealInputDerivatives", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		ord, ok2 := view[int32](unsafe.Pointer(order), n)
		vals, ok3 := view[float64](unsafe.Pointer(value), n)
		if !ok1 || !ok2 || !ok3 {
			return nullArgs(in, "fmi2SetRealInputDerivatives")
		}
		return in.SetRealInputDerivatives(refs, ord, vals)
	})
}

//export fmi2GetRealOutputDerivatives
func fmi2GetRealOutputDerivatives(c C.cablefmu_ref, vr *C.fmi2ValueReference, n C.size_t, order *C.fmi2Integer, value *C.fmi2Real) C.fmi2Status {
	return withFMU(c, "fmi2GetRealOutputDerivatives", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		ord, ok2 := view[int32](unsafe.Pointer(order), n)
		out, ok3 := view[float64](unsafe.Pointer(value), n)
		if !ok1 || !ok2 || !ok3 {
			return nullArgs(in, "fmi2GetRealOutputDerivatives")
		}
		return in.OutputDerivatives("fmi2GetRealOutputDerivatives", refs, ord, out)
	})
}

//export fmi2DoStep
func fmi2DoStep(c C.cablefmu_ref, t, h C.fmi2Real, noSetPrior C.fmi2Boolean) C.fmi2Status {
	return withFMU(c, "fmi2DoStep", func(in *fmu.Instance) fmu.Status { return in.DoStep(float64(t), float64(h)) })
}

//export fmi2CancelStep
func fmi2CancelStep(c C.cablefmu_ref) C.fmi2Status {
	return unsupported(c, "fmi2CancelStep", "steps run synchronously (canRunAsynchronuously=\"false\"): there is no step to cancel")
}

func noStatus(c C.cablefmu_ref, fn string, kind C.fmi2StatusKind) C.fmi2Status {
	return withFMU(c, fn, func(in *fmu.Instance) fmu.Status {
		in.Log(fmu.Discard, "%s: status kind %d is not available: steps run synchronously", fn, int(kind))
		return fmu.Discard
	})
}

//export fmi2GetStatus
func fmi2GetStatus(c C.cablefmu_ref, kind C.fmi2StatusKind, value *C.fmi2Status) C.fmi2Status {
	return noStatus(c, "fmi2GetStatus", kind)
}

//export fmi2GetRealStatus
func fmi2GetRealStatus(c C.cablefmu_ref, kind C.fmi2StatusKind, value *C.fmi2Real) C.fmi2Status {
	if kind != C.fmi2LastSuccessfulTime {
		return noStatus(c, "fmi2GetRealStatus", kind)
	}
	return withFMU(c, "fmi2GetRealStatus", func(in *fmu.Instance) fmu.Status {
		if value == nil {
			return in.Reject("fmi2GetRealStatus", "value is NULL")
		}
		t, st := in.LastSuccessfulTime()
		if st == fmu.OK {
			*value = C.fmi2Real(t)
		}
		return st
	})
}

//export fmi2GetIntegerStatus
func fmi2GetIntegerStatus(c C.cablefmu_ref, kind C.fmi2StatusKind, value *C.fmi2Integer) C.fmi2Status {
	return noStatus(c, "fmi2GetIntegerStatus", kind)
}

//export fmi2GetBooleanStatus
func fmi2GetBooleanStatus(c C.cablefmu_ref, kind C.fmi2StatusKind, value *C.fmi2Boolean) C.fmi2Status {
	if kind != C.fmi2Terminated {
		return noStatus(c, "fmi2GetBooleanStatus", kind)
	}
	return withFMU(c, "fmi2GetBooleanStatus", func(in *fmu.Instance) fmu.Status {
		if value == nil {
			return in.Reject("fmi2GetBooleanStatus", "value is NULL")
		}
		*value = cBool(false) // the FMU never asks to end the simulation
		return fmu.OK
	})
}

//export fmi2GetStringStatus
func fmi2GetStringStatus(c C.cablefmu_ref, kind C.fmi2StatusKind, value *C.fmi2String) C.fmi2Status {
	return noStatus(c, "fmi2GetStringStatus", kind)
}
