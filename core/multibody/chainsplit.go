package multibody

// A chain's factorization and substitution run from its two ends towards
// the middle block (Chain): the two ends touch different blocks, and where
// the problem has a helper (World.Parallel) each end runs on its own
// goroutine, the same operations as in turn on one, to the bit.

// chainSplit is what the two ends of a split solve hand on.
type chainSplit struct {
	p *Problem
	// middleTail says the middle block's tail was found before the ends
	// ran, which both would otherwise write.
	middleTail bool
	// The first block from each end whose Ď was not positive definite,
	// counted from its end, and the error; -1 where none.
	topAt, bottomAt   int
	topErr, bottomErr error
	// The last six-row z of each end's forward pass, and the middle's.
	zp, zb *[6]float64
}

// factorEnds is factor's loop over the blocks above and below the middle,
// split between p's helper and this goroutine. Of two failing blocks it
// reports the one the loop in turn meets first.
func (c *Chain) factorEnds(p *Problem) error {
	s := &c.split
	s.p, s.topAt, s.bottomAt, s.topErr, s.bottomErr = p, -1, -1, nil, nil
	if b := &c.six[c.middle]; b.js != nil {
		b.tail, s.middleTail = angularTail(b.js), true
	}
	p.helper.split(c, passFactor, 0)
	s.p, s.middleTail = nil, false
	switch {
	case s.topAt >= 0 && (s.bottomAt < 0 || s.topAt <= s.bottomAt):
		return s.topErr
	case s.bottomAt >= 0:
		return s.bottomErr
	}
	return nil
}

// substituteEnds is substitute split between p's helper and this
// goroutine: the forward passes from both ends, the middle, and the
// backward passes towards both ends.
func (c *Chain) substituteEnds(p *Problem) {
	s := &c.split
	s.p = p
	p.helper.split(c, passForward, 0)
	s.zb = c.substituteMiddle(p.Lambda, s.zp, s.zb)
	p.helper.split(c, passBackward, 0)
	s.p, s.zp, s.zb = nil, nil, nil
}

// half implements halves: the top end's part of pass k, or the bottom's.
func (c *Chain) half(bottom bool, k pass, _ float64) {
	s := &c.split
	p, six, m := s.p, c.six, c.middle
	last := len(six) - 1
	z := p.Lambda
	switch {
	case k == passFactor && !bottom:
		for i := 0; i < m; i++ {
			if err := c.factorTop(p, i); err != nil {
				s.topAt, s.topErr = i, err
				return
			}
		}
	case k == passFactor:
		for k := last; k > m; k-- {
			if !c.factorBottom6(p, k) {
				s.bottomAt, s.bottomErr = last-k, c.notPositive(k)
				return
			}
		}
	case k == passForward && !bottom:
		var zp *[6]float64
		for i := 0; i < m; i++ {
			zp = c.forwardTop(z, i, zp)
		}
		s.zp = zp
	case k == passForward:
		var zb *[6]float64
		for k := last; k > m; k-- {
			zb = c.forwardBottom(z, k, zb)
		}
		s.zb = zb
	case k == passBackward && !bottom:
		zn := s.zb
		for k := m - 1; k >= 0; k-- {
			zn = c.backwardTop(z, k, zn)
		}
	case k == passBackward:
		zb := s.zb
		for k := m + 1; k <= last; k++ {
			zb = c.backwardBottom(z, k, zb)
		}
	}
}
