package main

/*
#include <stdlib.h>
#include "fmi2_types.h"
#include "fmi3_types.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/cablefmu/cablefmu/fmu"
)

// The FMI 3.0 interface: the same instances as FMI 2.0 (package fmu),
// switched to the FMI 3.0 variable layout (time, scalars, arrays) and
// message names. Status values are the same numbers in both standards.

func with3(c C.cablefmu_ref, fn string, f func(in *fmu.Instance) fmu.Status) C.fmi3Status {
	return C.fmi3Status(withFMU(c, fn, f))
}

func unsupported3(c C.cablefmu_ref, fn, why string) C.fmi3Status {
	return with3(c, fn, func(in *fmu.Instance) fmu.Status { return in.Unsupported(fn, why) })
}

const (
	coSimOnly3 = "this FMU supports Co-Simulation only"
	noEvents3  = "this FMU has no event mode (hasEventMode=\"false\"), clocks or discrete states"
	noConfig3  = "this FMU has no structural parameters to configure"
)

//export fmi3GetVersion
func fmi3GetVersion() *C.char { return (*C.char)(unsafe.Pointer(C.cablefmu_version3())) }

//export fmi3SetDebugLogging
func fmi3SetDebugLogging(c C.cablefmu_ref, loggingOn C.fmi3Boolean, n C.size_t, categories *C.fmi3String) C.fmi3Status {
	return with3(c, "fmi3SetDebugLogging", func(in *fmu.Instance) fmu.Status {
		cats, ok := cStrings(unsafe.Pointer(categories), n)
		if !ok {
			return in.Reject("fmi3SetDebugLogging", "categories is NULL with nCategories = %d, or longer than any array in memory", uint64(n))
		}
		return in.SetDebugLogging(bool(loggingOn), cats)
	})
}

//export fmi3InstantiateModelExchange
func fmi3InstantiateModelExchange(name, token, resources C.fmi3String, visible, loggingOn C.fmi3Boolean,
	env C.cablefmu_ref, logMessage C.fmi3LogMessageCallback) C.cablefmu_ref {
	(&cLogger3{fn: logMessage, env: env}).Log(fmu.Error, "logStatusError", "fmi3InstantiateModelExchange: "+coSimOnly3)
	return 0
}

//export fmi3InstantiateScheduledExecution
func fmi3InstantiateScheduledExecution(name, token, resources C.fmi3String, visible, loggingOn C.fmi3Boolean,
	env C.cablefmu_ref, logMessage C.fmi3LogMessageCallback, clockUpdate C.fmi3ClockUpdateCallback,
	lock C.fmi3LockPreemptionCallback, unlock C.fmi3UnlockPreemptionCallback) C.cablefmu_ref {
	(&cLogger3{fn: logMessage, env: env}).Log(fmu.Error, "logStatusError", "fmi3InstantiateScheduledExecution: "+coSimOnly3)
	return 0
}

//export fmi3InstantiateCoSimulation
func fmi3InstantiateCoSimulation(instanceName, token, resourcePath C.fmi3String, visible, loggingOn,
	eventModeUsed, earlyReturnAllowed C.fmi3Boolean, required *C.fmi3ValueReference, nRequired C.size_t,
	env C.cablefmu_ref, logMessage C.fmi3LogMessageCallback, intermediate C.fmi3IntermediateUpdateCallback) (handle C.cablefmu_ref) {
	logger := &cLogger3{fn: logMessage, env: env}
	fail := func(format string, args ...any) C.cablefmu_ref {
		logger.Log(fmu.Error, "logStatusError", "fmi3InstantiateCoSimulation: "+fmt.Sprintf(format, args...))
		return 0
	}
	defer func() {
		if r := recover(); r != nil {
			handle = fail("internal error: %v", r)
		}
	}()
	switch {
	case instanceName == nil || C.GoString(instanceName) == "":
		return fail("instance name is missing")
	case token == nil:
		return fail("instantiationToken is missing")
	case resourcePath == nil:
		return fail("resourcePath is missing")
	case nRequired > 0:
		return fail("no intermediate variables are provided (providesIntermediateUpdate=\"false\")")
	case bool(eventModeUsed):
		// FMI 3.0, fmi3InstantiateCoSimulation: eventModeUsed may be true
		// only where hasEventMode is; otherwise the FMU must raise an error.
		return fail("eventModeUsed is true, but the FMU has no event mode (hasEventMode=\"false\"): instantiate it with eventModeUsed false; it steps in step mode after initialization")
	}
	reg, err := registry()
	if err != nil {
		return fail("%v", err)
	}
	in, err := fmu.Instantiate(fmu.Config{
		InstanceName:     C.GoString(instanceName),
		GUID:             C.GoString(token),
		ResourceLocation: C.GoString(resourcePath),
		Logger:           logger,
		LoggingOn:        bool(loggingOn),
		Registry:         reg,
	})
	if err != nil {
		// FMI 3.0 names the GUID the instantiation token.
		return fail("%s", strings.Replace(err.Error(), "GUID", "instantiation token", 1))
	}
	in.UseFMI3()
	h, err := handles.newInstance(in)
	if err != nil {
		return fail("%v", err)
	}
	return h
}

//export fmi3FreeInstance
func fmi3FreeInstance(c C.cablefmu_ref) { fmi2FreeInstance(c) }

//export fmi3EnterInitializationMode
func fmi3EnterInitializationMode(c C.cablefmu_ref, toleranceDefined C.fmi3Boolean, tolerance, start C.fmi3Float64,
	stopDefined C.fmi3Boolean, stop C.fmi3Float64) C.fmi3Status {
	return with3(c, "fmi3EnterInitializationMode", func(in *fmu.Instance) fmu.Status {
		// FMI 3.0 folds the experiment setup into this call.
		if st := in.SetupExperiment(bool(toleranceDefined), float64(tolerance), float64(start), bool(stopDefined), float64(stop)); st != fmu.OK {
			return st
		}
		return in.EnterInitializationMode()
	})
}

//export fmi3ExitInitializationMode
func fmi3ExitInitializationMode(c C.cablefmu_ref) C.fmi3Status {
	return with3(c, "fmi3ExitInitializationMode", (*fmu.Instance).ExitInitializationMode)
}

//export fmi3EnterEventMode
func fmi3EnterEventMode(c C.cablefmu_ref) C.fmi3Status {
	return unsupported3(c, "fmi3EnterEventMode", noEvents3)
}

//export fmi3Terminate
func fmi3Terminate(c C.cablefmu_ref) C.fmi3Status {
	return with3(c, "fmi3Terminate", (*fmu.Instance).Terminate)
}

//export fmi3Reset
func fmi3Reset(c C.cablefmu_ref) C.fmi3Status {
	return with3(c, "fmi3Reset", (*fmu.Instance).Reset)
}

//export fmi3GetFloat64
func fmi3GetFloat64(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Float64, nValues C.size_t) C.fmi3Status {
	return with3(c, "fmi3GetFloat64", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		out, ok2 := view[float64](unsafe.Pointer(values), nValues)
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi3GetFloat64")
		}
		return in.GetFloat64(refs, out)
	})
}

//export fmi3SetFloat64
func fmi3SetFloat64(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Float64, nValues C.size_t) C.fmi3Status {
	return with3(c, "fmi3SetFloat64", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		vals, ok2 := view[float64](unsafe.Pointer(values), nValues)
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi3SetFloat64")
		}
		return in.SetFloat64(refs, vals)
	})
}

// The FMU's variables are Float64, Int32 (counts) and Boolean (switches):
// the typed accessors of the other types accept empty requests and refuse
// any value reference.
func noneOfType3(c C.cablefmu_ref, fn string, vr *C.fmi3ValueReference, n C.size_t, mask fmu.State) C.fmi3Status {
	return with3(c, fn, func(in *fmu.Instance) fmu.Status {
		refs, ok := view[uint32](unsafe.Pointer(vr), n)
		if !ok {
			return nullArgs(in, fn)
		}
		return in.CheckEmpty(fn, refs, mask)
	})
}

//export fmi3GetFloat32
func fmi3GetFloat32(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Float32, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3GetFloat32", vr, n, fmu.Readable)
}

//export fmi3GetInt8
func fmi3GetInt8(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Int8, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3GetInt8", vr, n, fmu.Readable)
}

//export fmi3GetUInt8
func fmi3GetUInt8(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3UInt8, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3GetUInt8", vr, n, fmu.Readable)
}

//export fmi3GetInt16
func fmi3GetInt16(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Int16, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3GetInt16", vr, n, fmu.Readable)
}

//export fmi3GetUInt16
func fmi3GetUInt16(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3UInt16, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3GetUInt16", vr, n, fmu.Readable)
}

//export fmi3GetInt32
func fmi3GetInt32(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Int32, nValues C.size_t) C.fmi3Status {
	return with3(c, "fmi3GetInt32", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		out, ok2 := view[int32](unsafe.Pointer(values), nValues)
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi3GetInt32")
		}
		return in.GetInt32(refs, out)
	})
}

//export fmi3GetUInt32
func fmi3GetUInt32(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3UInt32, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3GetUInt32", vr, n, fmu.Readable)
}

//export fmi3GetInt64
func fmi3GetInt64(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Int64, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3GetInt64", vr, n, fmu.Readable)
}

//export fmi3GetUInt64
func fmi3GetUInt64(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3UInt64, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3GetUInt64", vr, n, fmu.Readable)
}

//export fmi3GetBoolean
func fmi3GetBoolean(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Boolean, nValues C.size_t) C.fmi3Status {
	return with3(c, "fmi3GetBoolean", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		out, ok2 := view[uint8](unsafe.Pointer(values), nValues) // a C bool: one byte, 0 or 1
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi3GetBoolean")
		}
		got := make([]bool, len(out))
		st := in.GetBoolean3(refs, got)
		if st == fmu.OK {
			putBools(out, got)
		}
		return st
	})
}

//export fmi3GetString
func fmi3GetString(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3String, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3GetString", vr, n, fmu.Readable)
}

//export fmi3SetFloat32
func fmi3SetFloat32(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Float32, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3SetFloat32", vr, n, fmu.Writable)
}

//export fmi3SetInt8
func fmi3SetInt8(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Int8, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3SetInt8", vr, n, fmu.Writable)
}

//export fmi3SetUInt8
func fmi3SetUInt8(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3UInt8, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3SetUInt8", vr, n, fmu.Writable)
}

//export fmi3SetInt16
func fmi3SetInt16(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Int16, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3SetInt16", vr, n, fmu.Writable)
}

//export fmi3SetUInt16
func fmi3SetUInt16(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3UInt16, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3SetUInt16", vr, n, fmu.Writable)
}

//export fmi3SetInt32
func fmi3SetInt32(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Int32, nValues C.size_t) C.fmi3Status {
	return with3(c, "fmi3SetInt32", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		vals, ok2 := view[int32](unsafe.Pointer(values), nValues)
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi3SetInt32")
		}
		return in.SetInt32(refs, vals)
	})
}

//export fmi3SetUInt32
func fmi3SetUInt32(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3UInt32, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3SetUInt32", vr, n, fmu.Writable)
}

//export fmi3SetInt64
func fmi3SetInt64(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Int64, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3SetInt64", vr, n, fmu.Writable)
}

//export fmi3SetUInt64
func fmi3SetUInt64(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3UInt64, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3SetUInt64", vr, n, fmu.Writable)
}

//export fmi3SetBoolean
func fmi3SetBoolean(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Boolean, nValues C.size_t) C.fmi3Status {
	return with3(c, "fmi3SetBoolean", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		vals, ok2 := view[uint8](unsafe.Pointer(values), nValues) // a C bool, read as its byte: any nonzero is true
		if !ok1 || !ok2 {
			return nullArgs(in, "fmi3SetBoolean")
		}
		return in.SetBoolean3(refs, bools(vals))
	})
}

//export fmi3SetString
func fmi3SetString(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3String, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3SetString", vr, n, fmu.Writable)
}

//export fmi3GetBinary
func fmi3GetBinary(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, sizes *C.size_t, values *C.fmi3Binary, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3GetBinary", vr, n, fmu.Readable)
}

//export fmi3SetBinary
func fmi3SetBinary(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, sizes *C.size_t, values *C.fmi3Binary, nValues C.size_t) C.fmi3Status {
	return noneOfType3(c, "fmi3SetBinary", vr, n, fmu.Writable)
}

//export fmi3GetClock
func fmi3GetClock(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Clock) C.fmi3Status {
	return noneOfType3(c, "fmi3GetClock", vr, n, fmu.Readable)
}

//export fmi3SetClock
func fmi3SetClock(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, values *C.fmi3Clock) C.fmi3Status {
	return noneOfType3(c, "fmi3SetClock", vr, n, fmu.Writable)
}

//export fmi3GetNumberOfVariableDependencies
func fmi3GetNumberOfVariableDependencies(c C.cablefmu_ref, vr C.fmi3ValueReference, n *C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3GetNumberOfVariableDependencies", "dependencies are in the model description only (providesPerElementDependencies=\"false\")")
}

//export fmi3GetVariableDependencies
func fmi3GetVariableDependencies(c C.cablefmu_ref, dependent C.fmi3ValueReference, elemDep *C.size_t, independents *C.fmi3ValueReference,
	elemIndep *C.size_t, kinds *C.fmi3DependencyKind, n C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3GetVariableDependencies", "dependencies are in the model description only (providesPerElementDependencies=\"false\")")
}

//export fmi3GetFMUState
func fmi3GetFMUState(c C.cablefmu_ref, state *C.cablefmu_ref) C.fmi3Status {
	return C.fmi3Status(fmi2GetFMUstate(c, state))
}

//export fmi3SetFMUState
func fmi3SetFMUState(c C.cablefmu_ref, state C.cablefmu_ref) C.fmi3Status {
	return C.fmi3Status(fmi2SetFMUstate(c, state))
}

//export fmi3FreeFMUState
func fmi3FreeFMUState(c C.cablefmu_ref, state *C.cablefmu_ref) C.fmi3Status {
	return C.fmi3Status(fmi2FreeFMUstate(c, state))
}

//export fmi3SerializedFMUStateSize
func fmi3SerializedFMUStateSize(c C.cablefmu_ref, state C.cablefmu_ref, size *C.size_t) C.fmi3Status {
	return C.fmi3Status(fmi2SerializedFMUstateSize(c, state, size))
}

//export fmi3SerializeFMUState
func fmi3SerializeFMUState(c C.cablefmu_ref, state C.cablefmu_ref, data *C.fmi3Byte, size C.size_t) C.fmi3Status {
	return C.fmi3Status(fmi2SerializeFMUstate(c, state, (*C.fmi2Byte)(unsafe.Pointer(data)), size))
}

//export fmi3DeserializeFMUState
func fmi3DeserializeFMUState(c C.cablefmu_ref, data *C.fmi3Byte, size C.size_t, state *C.cablefmu_ref) C.fmi3Status {
	return C.fmi3Status(fmi2DeSerializeFMUstate(c, (*C.fmi2Byte)(unsafe.Pointer(data)), size, state))
}

//export fmi3GetDirectionalDerivative
func fmi3GetDirectionalDerivative(c C.cablefmu_ref, unknowns *C.fmi3ValueReference, nUnknowns C.size_t, knowns *C.fmi3ValueReference, nKnowns C.size_t,
	seed *C.fmi3Float64, nSeed C.size_t, sensitivity *C.fmi3Float64, nSensitivity C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3GetDirectionalDerivative", fmu.NoDirectionalDerivatives)
}

//export fmi3GetAdjointDerivative
func fmi3GetAdjointDerivative(c C.cablefmu_ref, unknowns *C.fmi3ValueReference, nUnknowns C.size_t, knowns *C.fmi3ValueReference, nKnowns C.size_t,
	seed *C.fmi3Float64, nSeed C.size_t, sensitivity *C.fmi3Float64, nSensitivity C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3GetAdjointDerivative", "adjoint derivatives are not provided (providesAdjointDerivatives=\"false\")")
}

//export fmi3EnterConfigurationMode
func fmi3EnterConfigurationMode(c C.cablefmu_ref) C.fmi3Status {
	return unsupported3(c, "fmi3EnterConfigurationMode", noConfig3)
}

//export fmi3ExitConfigurationMode
func fmi3ExitConfigurationMode(c C.cablefmu_ref) C.fmi3Status {
	return unsupported3(c, "fmi3ExitConfigurationMode", noConfig3)
}

//export fmi3GetIntervalDecimal
func fmi3GetIntervalDecimal(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, intervals *C.fmi3Float64, qualifiers *C.fmi3IntervalQualifier) C.fmi3Status {
	return unsupported3(c, "fmi3GetIntervalDecimal", noEvents3)
}

//export fmi3GetIntervalFraction
func fmi3GetIntervalFraction(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, counters, resolutions *C.fmi3UInt64, qualifiers *C.fmi3IntervalQualifier) C.fmi3Status {
	return unsupported3(c, "fmi3GetIntervalFraction", noEvents3)
}

//export fmi3GetShiftDecimal
func fmi3GetShiftDecimal(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, shifts *C.fmi3Float64) C.fmi3Status {
	return unsupported3(c, "fmi3GetShiftDecimal", noEvents3)
}

//export fmi3GetShiftFraction
func fmi3GetShiftFraction(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, counters, resolutions *C.fmi3UInt64) C.fmi3Status {
	return unsupported3(c, "fmi3GetShiftFraction", noEvents3)
}

//export fmi3SetIntervalDecimal
func fmi3SetIntervalDecimal(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, intervals *C.fmi3Float64) C.fmi3Status {
	return unsupported3(c, "fmi3SetIntervalDecimal", noEvents3)
}

//export fmi3SetIntervalFraction
func fmi3SetIntervalFraction(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, counters, resolutions *C.fmi3UInt64) C.fmi3Status {
	return unsupported3(c, "fmi3SetIntervalFraction", noEvents3)
}

//export fmi3SetShiftDecimal
func fmi3SetShiftDecimal(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, shifts *C.fmi3Float64) C.fmi3Status {
	return unsupported3(c, "fmi3SetShiftDecimal", noEvents3)
}

//export fmi3SetShiftFraction
func fmi3SetShiftFraction(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, counters, resolutions *C.fmi3UInt64) C.fmi3Status {
	return unsupported3(c, "fmi3SetShiftFraction", noEvents3)
}

//export fmi3EvaluateDiscreteStates
func fmi3EvaluateDiscreteStates(c C.cablefmu_ref) C.fmi3Status {
	return unsupported3(c, "fmi3EvaluateDiscreteStates", noEvents3)
}

//export fmi3UpdateDiscreteStates
func fmi3UpdateDiscreteStates(c C.cablefmu_ref, needUpdate, terminate, nominalsChanged, valuesChanged, nextDefined *C.fmi3Boolean, next *C.fmi3Float64) C.fmi3Status {
	return unsupported3(c, "fmi3UpdateDiscreteStates", noEvents3)
}

//export fmi3EnterContinuousTimeMode
func fmi3EnterContinuousTimeMode(c C.cablefmu_ref) C.fmi3Status {
	return unsupported3(c, "fmi3EnterContinuousTimeMode", coSimOnly3)
}

//export fmi3CompletedIntegratorStep
func fmi3CompletedIntegratorStep(c C.cablefmu_ref, noSetPrior C.fmi3Boolean, enterEventMode, terminate *C.fmi3Boolean) C.fmi3Status {
	return unsupported3(c, "fmi3CompletedIntegratorStep", coSimOnly3)
}

//export fmi3SetTime
func fmi3SetTime(c C.cablefmu_ref, t C.fmi3Float64) C.fmi3Status {
	return unsupported3(c, "fmi3SetTime", coSimOnly3)
}

//export fmi3SetContinuousStates
func fmi3SetContinuousStates(c C.cablefmu_ref, x *C.fmi3Float64, n C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3SetContinuousStates", coSimOnly3)
}

//export fmi3GetContinuousStateDerivatives
func fmi3GetContinuousStateDerivatives(c C.cablefmu_ref, dx *C.fmi3Float64, n C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3GetContinuousStateDerivatives", coSimOnly3)
}

//export fmi3GetEventIndicators
func fmi3GetEventIndicators(c C.cablefmu_ref, z *C.fmi3Float64, n C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3GetEventIndicators", coSimOnly3)
}

//export fmi3GetContinuousStates
func fmi3GetContinuousStates(c C.cablefmu_ref, x *C.fmi3Float64, n C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3GetContinuousStates", coSimOnly3)
}

//export fmi3GetNominalsOfContinuousStates
func fmi3GetNominalsOfContinuousStates(c C.cablefmu_ref, x *C.fmi3Float64, n C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3GetNominalsOfContinuousStates", coSimOnly3)
}

//export fmi3GetNumberOfEventIndicators
func fmi3GetNumberOfEventIndicators(c C.cablefmu_ref, n *C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3GetNumberOfEventIndicators", coSimOnly3)
}

//export fmi3GetNumberOfContinuousStates
func fmi3GetNumberOfContinuousStates(c C.cablefmu_ref, n *C.size_t) C.fmi3Status {
	return unsupported3(c, "fmi3GetNumberOfContinuousStates", coSimOnly3)
}

//export fmi3EnterStepMode
func fmi3EnterStepMode(c C.cablefmu_ref) C.fmi3Status {
	return unsupported3(c, "fmi3EnterStepMode", "the FMU is in step mode after fmi3ExitInitializationMode: it has no event mode to leave")
}

//export fmi3GetOutputDerivatives
func fmi3GetOutputDerivatives(c C.cablefmu_ref, vr *C.fmi3ValueReference, n C.size_t, orders *C.fmi3Int32, values *C.fmi3Float64, nValues C.size_t) C.fmi3Status {
	return with3(c, "fmi3GetOutputDerivatives", func(in *fmu.Instance) fmu.Status {
		refs, ok1 := view[uint32](unsafe.Pointer(vr), n)
		ord, ok2 := view[int32](unsafe.Pointer(orders), n)
		out, ok3 := view[float64](unsafe.Pointer(values), nValues)
		if !ok1 || !ok2 || !ok3 {
			return nullArgs(in, "fmi3GetOutputDerivatives")
		}
		return in.OutputDerivatives3(refs, ord, out)
	})
}

//export fmi3DoStep
func fmi3DoStep(c C.cablefmu_ref, t, h C.fmi3Float64, noSetPrior C.fmi3Boolean, eventNeeded, terminate, earlyReturn *C.fmi3Boolean,
	lastSuccessful *C.fmi3Float64) C.fmi3Status {
	return with3(c, "fmi3DoStep", func(in *fmu.Instance) fmu.Status {
		if eventNeeded == nil || terminate == nil || earlyReturn == nil || lastSuccessful == nil {
			return in.Reject("fmi3DoStep", "an output argument is NULL")
		}
		st := in.DoStep(float64(t), float64(h))
		*eventNeeded, *terminate, *earlyReturn = false, false, false
		*lastSuccessful = C.fmi3Float64(in.CurrentTime())
		return st
	})
}

//export fmi3ActivateModelPartition
func fmi3ActivateModelPartition(c C.cablefmu_ref, clock C.fmi3ValueReference, t C.fmi3Float64) C.fmi3Status {
	return unsupported3(c, "fmi3ActivateModelPartition", coSimOnly3)
}
