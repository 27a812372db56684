// Package oscillation measures a free oscillation from its samples: the
// frequency and damping ratio that the tests compare with closed forms.
package oscillation

import (
	"fmt"
	"math"
)

// Measure returns the frequency (Hz) and damping ratio of a decaying
// oscillation sampled every dt seconds about its mean: upward crossings
// of the mean (interpolated linearly) give the period, the decay of the
// successive peaks between them the logarithmic decrement δ, and
// ζ = δ/√(4π² + δ²). It needs six crossings or more.
func Measure(trace []float64, mean, dt float64) (freq, zeta float64, err error) {
	var ups, peaks []float64
	peak := 0.0
	for k := 1; k < len(trace); k++ {
		a, b := trace[k-1]-mean, trace[k]-mean
		peak = max(peak, b)
		if a < 0 && b >= 0 {
			ups = append(ups, (float64(k-1)+a/(a-b))*dt)
			if len(ups) > 1 {
				peaks = append(peaks, peak)
			}
			peak = 0
		}
	}
	if len(ups) < 6 {
		return 0, 0, fmt.Errorf("%d upward crossings of the mean, want 6 or more", len(ups))
	}
	n := len(ups) - 1
	freq = float64(n) / (ups[n] - ups[0])
	m := len(peaks) - 1
	delta := math.Log(peaks[0]/peaks[m]) / float64(m)
	return freq, delta / math.Sqrt(4*math.Pi*math.Pi+delta*delta), nil
}
