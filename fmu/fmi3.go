package fmu

import (
	"strings"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// fmi3Names renames the FMI 2.0 functions in messages for an instance
// created through the FMI 3.0 interface.
var fmi3Names = strings.NewReplacer(
	"fmi2GetInteger", "fmi3GetInt32", "fmi2SetInteger", "fmi3SetInt32",
	"a Real variable", "a Float64 variable", "an Integer variable", "an Int32 variable",
	"fmi2GetReal", "fmi3GetFloat64", "fmi2SetReal", "fmi3SetFloat64",
	"fmi2SetupExperiment", "fmi3EnterInitializationMode",
	"fmi2GetFMUstate", "fmi3GetFMUState", "fmi2SetFMUstate", "fmi3SetFMUState",
	"fmi2FreeFMUstate", "fmi3FreeFMUState", "fmi2SerializedFMUstateSize", "fmi3SerializedFMUStateSize",
	"fmi2SerializeFMUstate", "fmi3SerializeFMUState", "fmi2DeSerializeFMUstate", "fmi3DeserializeFMUState",
	"GUID", "instantiation token",
	"fmi2SetRealInputDerivatives", "fmi3SetInputDerivatives",
	"fmi2GetRealStatus", "fmi3DoStep", "fmi2", "fmi3",
	"state slave initialized", "state step mode", "a Real output", "a Float64 output")

// UseFMI3 switches the instance to the FMI 3.0 interface: its variables
// are those of Layout3 and its messages name the fmi3 functions.
func (in *Instance) UseFMI3() {
	in.lock()
	defer in.unlock()
	in.layout3 = Layout3(in.vars)
}

// GetFloat64 reads FMI 3.0 variables; arrays give all their elements.
// nValues must be the total number of values.
func (in *Instance) GetFloat64(vrs []uint32, out []float64) Status {
	in.trace3("fmi3GetFloat64", "%v", vrs)
	scalars, st := in.expand3("fmi3GetFloat64", vrs, len(out), true)
	if st != OK {
		return st
	}
	refs := make([]uint32, 0, len(scalars))
	for _, i := range scalars {
		if i >= 0 {
			refs = append(refs, uint32(i))
		}
	}
	vals := make([]float64, len(refs))
	if st := in.getValues("fmi2GetReal", modeldesc.TypeReal, refs, vals, false); st != OK {
		return st
	}
	in.lock()
	t, ok := in.time, true
	if len(refs) < len(scalars) { // time: readable where every other variable is
		ok = in.allowed("fmi3GetFloat64", Readable)
	}
	in.unlock()
	if !ok {
		return Error
	}
	k := 0
	for j, i := range scalars {
		if i < 0 {
			out[j] = t
			continue
		}
		out[j] = vals[k]
		k++
	}
	return OK
}

// SetFloat64 writes FMI 3.0 variables (inputs and, before the step mode,
// parameters).
func (in *Instance) SetFloat64(vrs []uint32, vals []float64) Status {
	in.trace3("fmi3SetFloat64", "%v, %v", vrs, vals)
	scalars, st := in.expand3("fmi3SetFloat64", vrs, len(vals), false)
	if st != OK {
		return st
	}
	refs := make([]uint32, len(scalars))
	for k, i := range scalars {
		refs[k] = uint32(i)
	}
	return in.setValues("fmi2SetReal", modeldesc.TypeReal, refs, vals, false)
}

// GetInt32 reads FMI 3.0 Int32 variables (counts).
func (in *Instance) GetInt32(vrs []uint32, out []int32) Status {
	in.trace3("fmi3GetInt32", "%v", vrs)
	refs, st := in.scalars3("fmi3GetInt32", vrs, len(out))
	if st != OK {
		return st
	}
	return in.getIntegers(refs, out, false)
}

// SetInt32 writes FMI 3.0 Int32 inputs and parameters.
func (in *Instance) SetInt32(vrs []uint32, vals []int32) Status {
	in.trace3("fmi3SetInt32", "%v, %v", vrs, vals)
	refs, st := in.scalars3("fmi3SetInt32", vrs, len(vals))
	if st != OK {
		return st
	}
	return in.setIntegers(refs, vals, false)
}

// GetBoolean3 reads FMI 3.0 Boolean variables (switches).
func (in *Instance) GetBoolean3(vrs []uint32, out []bool) Status {
	in.trace3("fmi3GetBoolean", "%v", vrs)
	refs, st := in.scalars3("fmi3GetBoolean", vrs, len(out))
	if st != OK {
		return st
	}
	return in.getBooleans(refs, out, false)
}

// SetBoolean3 writes FMI 3.0 Boolean inputs and parameters.
func (in *Instance) SetBoolean3(vrs []uint32, vals []bool) Status {
	in.trace3("fmi3SetBoolean", "%v, %v", vrs, vals)
	refs, st := in.scalars3("fmi3SetBoolean", vrs, len(vals))
	if st != OK {
		return st
	}
	return in.setBooleans(refs, vals, false)
}

// scalars3 maps FMI 3.0 value references of variables other than time to
// the model's scalar value references.
func (in *Instance) scalars3(fn string, vrs []uint32, nValues int) ([]uint32, Status) {
	scalars, st := in.expand3(fn, vrs, nValues, true)
	if st != OK {
		return nil, st
	}
	refs := make([]uint32, len(scalars))
	for k, i := range scalars {
		if i < 0 {
			return nil, in.Reject(fn, "time is a Float64 variable: use fmi3GetFloat64")
		}
		refs[k] = uint32(i)
	}
	return refs, OK
}

// trace3 traces an FMI 3.0 call under logCalls with its arguments as the
// caller gave them (value references of the FMI 3.0 variables); the
// runtime's calls that serve it, on the model's scalars, are not traced.
func (in *Instance) trace3(fn, format string, args ...any) {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall(fn, format, args...)
	}
}

// expand3 maps FMI 3.0 value references to the model's scalar indices
// (−1 for time) and checks the number of values (unless nValues < 0).
func (in *Instance) expand3(fn string, vrs []uint32, nValues int, timeOK bool) ([]int, Status) {
	in.lock()
	defer in.unlock()
	if in.layout3 == nil {
		return nil, in.fail("%s: the instance was not created through the FMI 3.0 interface", fn)
	}
	var scalars []int
	for _, vr := range vrs {
		if int64(vr) >= int64(len(in.layout3)) {
			return nil, in.fail("%s: unknown value reference %d", fn, vr)
		}
		v := in.layout3[vr]
		if v.Independent {
			if !timeOK {
				return nil, in.fail("%s: %s is the independent variable, which %s does not take", fn, v.Name, fn)
			}
			scalars = append(scalars, -1)
			continue
		}
		scalars = append(scalars, v.Scalars...)
	}
	if nValues >= 0 && len(scalars) != nValues {
		return nil, in.fail("%s: %d values for value references with %d elements", fn, nValues, len(scalars))
	}
	return scalars, OK
}

// Layout returns the FMI 3.0 variables of an instance created through
// that interface.
func (in *Instance) Layout() []Var3 { return in.layout3 }

// CurrentTime returns the time of the last completed communication point
// (s).
func (in *Instance) CurrentTime() float64 {
	in.lock()
	defer in.unlock()
	return in.time
}
