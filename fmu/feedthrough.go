package fmu

import "github.com/cablefmu/cablefmu/modeldesc"

// feedthrough brings the direct outputs up to date with the inputs set
// since the last step (in step mode only: at initialization the world is
// built from the inputs).
func (in *Instance) feedthrough() {
	if in.state != StepComplete || in.sim == nil {
		return
	}
	ft, ok := in.sim.(FeedthroughSimulation)
	if !ok {
		return
	}
	for _, c := range in.changed {
		if c {
			// Start from the outputs of the communication point, so that
			// reading twice does not add the change twice.
			h := in.model.InternalStep(in.values)
			in.outputsAt(h)
			ft.Feedthrough(in.values, in.changed, in.behind(h), h)
			return
		}
	}
}

// DirectionalDerivative returns Σ_k ∂y_u/∂u_k · seed_k for the output
// variables unknowns and the input variables knowns (value references of
// the FMI 2.0 layout), at the current inputs: the outputs' direct
// dependence on the inputs, the crane force's on the suspension point
// (the cable's stiffness and damping). Outputs without direct dependence
// have zero derivatives; a model without any refuses the call.
func (in *Instance) DirectionalDerivative(fn string, unknowns, knowns []uint32, seed, out []float64) Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall(fn, "%v, %v, %v", unknowns, knowns, seed)
	}
	if !in.allowed(fn, StepComplete|Terminated) {
		return Error
	}
	if !in.derivatives {
		// The model description says providesDirectionalDerivative(s)
		// false: no derivatives, rather than zeros a master would trust.
		return in.fail("%s: this model provides no directional derivatives (its outputs do not respond at once to its inputs)", fn)
	}
	for _, vr := range knowns {
		i, ok := in.lookup(fn, vr)
		if !ok {
			return Error
		}
		if in.vars[i].Causality != modeldesc.CausalityInput {
			return in.fail("%s: known %s is not an input: derivatives are with respect to inputs", fn, in.vars[i].Name)
		}
	}
	for _, vr := range unknowns {
		i, ok := in.lookup(fn, vr)
		if !ok {
			return Error
		}
		if in.vars[i].Causality != modeldesc.CausalityOutput {
			return in.fail("%s: unknown %s is not an output", fn, in.vars[i].Name)
		}
	}
	for _, x := range seed {
		if !finite(x) {
			return in.fail("%s: seed %g: values must be finite", fn, x)
		}
	}
	ft, _ := in.sim.(FeedthroughSimulation)
	h := in.model.InternalStep(in.values)
	back := in.behind(h)
	for k, u := range unknowns {
		out[k] = 0
		if ft == nil {
			continue
		}
		for j, kn := range knowns {
			out[k] += ft.Partial(in.values, in.changed, back, h, int(u), int(kn)) * seed[j]
		}
		if !finite(out[k]) {
			return in.fail("%s: the derivative of %s is %g for this seed: the seed is too large for the model's stiffness", fn, in.vars[u].Name, out[k])
		}
	}
	return OK
}

// directInputs returns, for each output index, the input indices it
// depends on directly (nil when the model has no feedthrough).
func directInputs(model Configured) map[int][]int {
	if f, ok := model.(Feedthrough); ok {
		return f.Direct()
	}
	return nil
}

// OutputDerivatives returns first time derivatives of outputs at the
// communication point (orders must be 1): the rate of change over the
// internal step the point lies in, the slope of the outputs'
// interpolation. For positions that is exactly the velocity at the step's
// end (symplectic Euler moves them with it); for forces and velocities it
// is the mean rate over that step.
func (in *Instance) OutputDerivatives(fn string, vrs []uint32, orders []int32, out []float64) Status {
	in.lock()
	defer in.unlock()
	if in.trace {
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
		if in.vars[i].Causality != modeldesc.CausalityOutput {
			return in.fail("%s: %s is not an output", fn, in.vars[i].Name)
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
	return in.OutputDerivatives(fn, scalars, ord, out)
}
