package massless

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// Node is a point of the cable route on a body: Offset is the body-frame
// position of the node relative to the body's centre of mass (d_j of [SL07]
// §4.4). The cable is fixed at the first and last node and slides
// freely through the nodes between them.
type Node struct {
	Body   *multibody.Body
	Offset geom.Vec3
}

// World returns the node's world position p_j = x + R d_j.
func (n Node) World() geom.Vec3 { return n.Body.PointWorld(n.Offset) }

func validateRoute(route []Node) error {
	if len(route) < 2 {
		return fmt.Errorf("cable route has %d nodes: needs at least two", len(route))
	}
	for i, n := range route {
		if n.Body == nil {
			return fmt.Errorf("cable node %d: no body", i)
		}
	}
	for i := 1; i < len(route); i++ {
		if _, l := route[i].World().Sub(route[i-1].World()).Unit(); l == 0 {
			return fmt.Errorf("cable segment %d: nodes %d and %d coincide", i, i-1, i)
		}
	}
	return nil
}

// Length returns the current geometric length Σ l_j of the route (m).
func Length(route []Node) float64 {
	l := 0.0
	for i := 1; i < len(route); i++ {
		l += route[i].World().Sub(route[i-1].World()).Norm()
	}
	return l
}

// uniqueBodies returns the distinct bodies of the route and each node's
// index among them: the Jacobian has one block per body even when several
// nodes sit on it.
func uniqueBodies(route []Node) ([]*multibody.Body, []int) {
	var bodies []*multibody.Body
	slot := make([]int, len(route))
	for i, n := range route {
		slot[i] = -1
		for k, b := range bodies {
			if b == n.Body {
				slot[i] = k
			}
		}
		if slot[i] < 0 {
			slot[i] = len(bodies)
			bodies = append(bodies, n.Body)
		}
	}
	return bodies, slot
}
