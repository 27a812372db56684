package hmrwire

import "fmt"

// StepMean reports values that the wires' segments give for their last
// solve only (tensions, the rope's torques at its ends, the contact
// nodes' forces) as means over the last step where the system took it in
// substeps (System.Step), as the world reports the bodies' constraint
// loads and the contacts' forces (multibody.World.Substeps): segments are
// rebuilt as the resolution adapts between substeps, so they cannot sum
// their own impulses over a step.
type StepMean struct {
	read      func(dst []float64) []float64
	sum, mean []float64
	// valid says mean holds the last step's: the system cut it.
	valid bool
}

// AddMean makes the system average the values read returns (always as
// many) over every step it takes in substeps, after each substep; read
// must only read. The means are part of the system's state: systems built
// alike add the same means in the same order.
func (sys *System) AddMean(read func(dst []float64) []float64) *StepMean {
	m := &StepMean{read: read}
	m.mean = read(nil)
	sys.means = append(sys.means, m)
	return m
}

// Values appends the values of the last step to dst: their means over its
// substeps where the system cut it, else read's.
func (m *StepMean) Values(dst []float64) []float64 {
	if m.valid {
		return append(dst, m.mean...)
	}
	return m.read(dst)
}

// substepDone takes the values after substep k of n (n = 1: a step not
// cut, whose values read gives as they are).
func (m *StepMean) substepDone(k, n int) error {
	if k == 0 {
		m.valid = false // until the last substep: a failed step leaves none
	}
	if n == 1 {
		return nil
	}
	m.sum = m.read(m.sum[:0])
	if len(m.sum) != len(m.mean) {
		return fmt.Errorf("a step mean read %d values, %d before", len(m.sum), len(m.mean))
	}
	if k == 0 {
		clear(m.mean)
	}
	for i, v := range m.sum {
		m.mean[i] += v
	}
	if k == n-1 {
		for i := range m.mean {
			m.mean[i] /= float64(n)
		}
		m.valid = true
	}
	return nil
}
