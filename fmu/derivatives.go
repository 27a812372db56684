package fmu

import "github.com/cablefmu/cablefmu/modeldesc"

// NoDirectionalDerivatives says why the FMU gives no directional
// derivatives: no output responds at once to an input (the driven
// points' paths take their inputs up over the next communication step),
// as the model description says (providesDirectionalDerivative false, no
// output dependencies), and zeros a master would trust are not given
// either.
const NoDirectionalDerivatives = "not provided: no output of this FMU responds at once to an input (the inputs act over the next communication step; providesDirectionalDerivative=\"false\")"

// OutputDerivatives returns first time derivatives of outputs at the
// communication point (orders must be 1): the rate of change over the
// internal step the point lies in, the slope of the outputs'
// interpolation. For positions that is exactly the velocity at the step's
// end (symplectic Euler moves them with it); for forces and velocities it
// is the mean rate over that step.
func (in *Instance) OutputDerivatives(fn string, vrs []uint32, orders []int32, out []float64) Status {
	return in.outputDerivatives(fn, vrs, orders, out, true)
}

// outputDerivatives is OutputDerivatives, the call traced under logCalls
// if trace is set (FMI 3.0 traces its own).
func (in *Instance) outputDerivatives(fn string, vrs []uint32, orders []int32, out []float64, trace bool) Status {
	in.lock()
	defer in.unlock()
	if in.trace && trace {
		in.traceCall(fn, "%v, %v", vrs, orders)
	}
	if !in.allowed(fn, StepComplete|Terminated) {
		return Error
	}
	for k, vr := range vrs {
		i, ok := in.lookup(fn, vr)
		if !ok {
			return Error
		}
		if in.vars[i].Causality != modeldesc.CausalityOutput || in.vars[i].Kind() != modeldesc.TypeReal {
			return in.fail("%s: %s is not a Real output", fn, in.vars[i].Name)
		}
		if orders[k] != 1 {
			return in.fail("%s: order %d for %s: only first derivatives are provided (maxOutputDerivativeOrder 1)", fn, orders[k], in.vars[i].Name)
		}
		out[k] = in.rates[i]
		if !finite(out[k]) {
			return in.fail("%s: the rate of %s over the last internal step is %g", fn, in.vars[i].Name, out[k])
		}
	}
	return OK
}

// OutputDerivatives3 is OutputDerivatives for FMI 3.0 value references;
// arrays give one derivative per element, with the order of their value
// reference.
func (in *Instance) OutputDerivatives3(vrs []uint32, orders []int32, out []float64) Status {
	const fn = "fmi3GetOutputDerivatives"
	in.trace3(fn, "%v, %v", vrs, orders)
	if len(orders) != len(vrs) {
		return in.Reject(fn, "%d orders for %d value references", len(orders), len(vrs))
	}
	var scalars []uint32
	var ord []int32
	for k, vr := range vrs {
		idx, st := in.expand3(fn, []uint32{vr}, -1, false)
		if st != OK && idx == nil {
			return st
		}
		for _, i := range idx {
			scalars = append(scalars, uint32(i))
			ord = append(ord, orders[k])
		}
	}
	if len(scalars) != len(out) {
		return in.Reject(fn, "%d values for value references with %d elements", len(out), len(scalars))
	}
	return in.outputDerivatives(fn, scalars, ord, out, false)
}
