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
			ft.Feedthrough(in.values, in.changed)
			return
		}
	}
}

// DirectionalDerivative returns Σ_k ∂y_u/∂u_k · seed_k for the output
// variables unknowns and the input variables knowns (value references of
// the FMI 2.0 layout), at the current inputs: the outputs' direct
// dependence on the inputs, the crane force's on the suspension point
// (the cable's stiffness and damping). Outputs without direct dependence
// have zero derivatives.
func (in *Instance) DirectionalDerivative(fn string, unknowns, knowns []uint32, seed, out []float64) Status {
	in.lock()
	defer in.unlock()
	if in.trace {
		in.traceCall(fn, "%v, %v, %v", unknowns, knowns, seed)
	}
	if !in.allowed(fn, StepComplete|Terminated) {
		return Error
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
	for k, u := range unknowns {
		out[k] = 0
		if ft == nil {
			continue
		}
		for j, kn := range knowns {
			out[k] += ft.Partial(in.values, int(u), int(kn)) * seed[j]
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
