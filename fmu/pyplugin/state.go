package pyplugin

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/go-python/gpython/py"

	"github.com/cablefmu/cablefmu/fmu/pyplugin/sandbox"
)

// The plugin API's objects in a plugin's state (sandbox.Objects): a
// declared variable by its number, the simulation's bodies, cables and
// winches by their names, the simulation itself.
const (
	tagVariable = sandbox.TagAPI + iota
	tagBody
	tagCable
	tagWinch
	tagSim
)

// objects writes and reads the API objects of one plugin.
type objects struct {
	vars    []*variable
	numbers map[*variable]int
	sim     *sim
}

func newObjects(p *plugin, s *sim) *objects {
	o := &objects{vars: p.d.vars, numbers: map[*variable]int{}, sim: s}
	for k, v := range p.d.vars {
		o.numbers[v] = k
	}
	return o
}

// Encode implements sandbox.Objects.
func (o *objects) Encode(dst []byte, v py.Object) ([]byte, bool, error) {
	switch x := v.(type) {
	case *variable:
		k, ok := o.numbers[x]
		if !ok {
			return nil, true, errors.New("holds a variable of another plugin")
		}
		return binary.AppendUvarint(append(dst, tagVariable), uint64(k)), true, nil
	case *body:
		return sandbox.AppendString(append(dst, tagBody), x.b.Name()), true, nil
	case *cable:
		return sandbox.AppendString(append(dst, tagCable), x.c.Name()), true, nil
	case *winch:
		return sandbox.AppendString(append(dst, tagWinch), x.w.Name()), true, nil
	case *sim:
		return append(dst, tagSim), true, nil
	}
	return dst, false, nil
}

// Decode implements sandbox.Objects.
func (o *objects) Decode(tag byte, r *sandbox.Reader) py.Object {
	var obj py.Object
	ok := false
	switch tag {
	case tagVariable:
		if k := r.Uvarint(); k < uint64(len(o.vars)) {
			obj, ok = o.vars[k], true
		}
	case tagBody:
		obj, ok = o.sim.bodies[r.String()]
	case tagCable:
		obj, ok = o.sim.cables[r.String()]
	case tagWinch:
		obj, ok = o.sim.winches[r.String()]
	case tagSim:
		obj, ok = o.sim, true
	}
	if !ok {
		r.Fail(fmt.Sprintf("API object of tag %d", tag))
		return py.None
	}
	return obj
}

// SaveExtra implements fmu.ExtraState: each plugin's state, in order.
func (s *simulation) SaveExtra(dst []byte) ([]byte, error) {
	for _, p := range s.plugins {
		var err error
		if dst, err = p.it.SaveState(dst, newObjects(p, s.plant)); err != nil {
			return nil, fmt.Errorf("plugin %s: %w", p.spec.ref.Name, err)
		}
	}
	return dst, nil
}

// LoadExtra implements fmu.ExtraState.
func (s *simulation) LoadExtra(src []byte) error {
	r := sandbox.NewReader(src)
	for _, p := range s.plugins {
		if err := p.it.LoadState(r, newObjects(p, s.plant)); err != nil {
			return fmt.Errorf("plugin %s: %w", p.spec.ref.Name, err)
		}
	}
	if n := r.Rest(); n != 0 {
		return fmt.Errorf("plugin state: %d bytes too many", n)
	}
	return nil
}
