package spline

import "sort"

// degree of the splines: cubic ([TGDM07] §4.2: "3rd order splines"),
// each span shaped by four control points.
const degree = 3

// knots is a clamped uniform knot vector of a cubic B-spline with n
// control points over u ∈ [0, length]: four knots at each end, the
// interior ones evenly spaced, so that the curve starts at the first
// control point and ends at the last, tangent there to the first and
// last control polygon legs.
type knots struct {
	t      []float64
	n      int     // control points
	length float64 // u's range (m): the rest length
}

func newKnots(n int, length float64) knots {
	spans := n - degree
	t := make([]float64, n+degree+1)
	for k := range t {
		switch {
		case k <= degree:
			t[k] = 0
		case k >= n:
			t[k] = length
		default:
			t[k] = length * float64(k-degree) / float64(spans)
		}
	}
	return knots{t: t, n: n, length: length}
}

// span returns the index s of the first control point acting at u: the
// four basis functions s … s+3 are the nonzero ones.
func (k knots) span(u float64) int {
	if u >= k.length {
		return k.n - 1 - degree
	}
	// The last knot interval [t_j, t_{j+1}) holding u, j in degree … n−1.
	j := sort.Search(len(k.t), func(i int) bool { return k.t[i] > u }) - 1
	return min(max(j, degree), k.n-1) - degree
}

// basis returns the values and the first and second derivatives (by u)
// of the four basis functions nonzero at u, and the first one's index:
// the Cox–de Boor recursion N_{i,p} = ω N_{i,p−1} + (1 − ω') N_{i+1,p−1}
// with its derivative N'_{i,p} = p (N_{i,p−1}/(t_{i+p} − t_i) −
// N_{i+1,p−1}/(t_{i+p+1} − t_{i+1})), terms over a zero knot span
// dropped.
func (k knots) basis(u float64) (val, d1, d2 [4]float64, first int) {
	first = k.span(u)
	for a := 0; a < 4; a++ {
		i := first + a
		val[a] = k.n3(i, degree, u)
		d1[a] = k.deriv(i, degree, u, 1)
		d2[a] = k.deriv(i, degree, u, 2)
	}
	return val, d1, d2, first
}

// n3 is N_{i,p}(u), the right end of the last span included.
func (k knots) n3(i, p int, u float64) float64 {
	t := k.t
	if p == 0 {
		if (u >= t[i] && u < t[i+1]) || (u == k.length && t[i] < t[i+1] && t[i+1] == k.length) {
			return 1
		}
		return 0
	}
	v := 0.0
	if d := t[i+p] - t[i]; d > 0 {
		v += (u - t[i]) / d * k.n3(i, p-1, u)
	}
	if d := t[i+p+1] - t[i+1]; d > 0 {
		v += (t[i+p+1] - u) / d * k.n3(i+1, p-1, u)
	}
	return v
}

// deriv is the order-th derivative of N_{i,p} at u.
func (k knots) deriv(i, p int, u float64, order int) float64 {
	if order == 0 {
		return k.n3(i, p, u)
	}
	t := k.t
	v := 0.0
	if d := t[i+p] - t[i]; d > 0 {
		v += float64(p) / d * k.deriv(i, p-1, u, order-1)
	}
	if d := t[i+p+1] - t[i+1]; d > 0 {
		v -= float64(p) / d * k.deriv(i+1, p-1, u, order-1)
	}
	return v
}

// gauss4 holds the abscissae and weights of 4-point Gauss–Legendre
// quadrature on [−1, 1]: exact for polynomials of degree 7.
var gauss4 = [4][2]float64{
	{-0.8611363115940526, 0.3478548451374538},
	{-0.3399810435848563, 0.6521451548625461},
	{0.3399810435848563, 0.6521451548625461},
	{0.8611363115940526, 0.3478548451374538},
}

// sample is a quadrature point: the weight (m) and the basis there.
type sample struct {
	w           float64
	val, d1, d2 [4]float64
	first       int
}

// greville returns control point i's Greville abscissa, the mean of its
// inner knots: where a straight line's control points lie.
func (k knots) greville(i int) float64 { return (k.t[i+1] + k.t[i+2] + k.t[i+3]) / 3 }

// samples returns the quadrature points of every span, in order.
func (k knots) samples() []sample {
	var out []sample
	for s := degree; s < k.n; s++ {
		a, b := k.t[s], k.t[s+1]
		if !(b > a) {
			continue
		}
		for _, g := range gauss4 {
			u := 0.5*(a+b) + 0.5*(b-a)*g[0]
			val, d1, d2, first := k.basis(u)
			out = append(out, sample{w: 0.5 * (b - a) * g[1], val: val, d1: d1, d2: d2, first: first})
		}
	}
	return out
}
