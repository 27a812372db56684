package pyplugin

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/go-python/gpython/py"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/fmu/plugins/plant"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
	"github.com/cablefmu/cablefmu/fmu/pyplugin/sandbox"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// The Python types plugins see. Their methods and properties are set up
// once in init; every object carries its instance's data.
var (
	simType      = py.NewType("Simulation", "The running simulation a plugin hook receives.")
	bodyType     = py.NewType("Body", "A body of the scenario.")
	cableType    = py.NewType("Cable", "A cable of the scenario.")
	winchType    = py.NewType("Winch", "A winch of the scenario.")
	variableType = py.NewType("Variable", "An FMU variable the plugin declared.")
)

// decl is a variable a plugin declares with parameter(), input() or
// output().
type decl struct {
	name, unit, description string
	causality               modeldesc.Causality
	start                   float64
	min, max                *float64
}

var declName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// declarer collects a plugin's declarations and hands out the variable
// objects its top level keeps.
type declarer struct {
	decls []decl
	vars  []*variable
	// values are the instance's values the variables read and write
	// (nil while only declaring).
	values *[]float64
	index  []int // value index of each declared variable
}

func (d *declarer) functions() map[string]py.Object {
	mk := func(c modeldesc.Causality) py.Object {
		name := map[modeldesc.Causality]string{modeldesc.CausalityParameter: "parameter", modeldesc.CausalityInput: "input", modeldesc.CausalityOutput: "output"}[c]
		return py.MustNewMethod(name, func(_ py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			return d.declare(name, c, args, kwargs)
		}, 0, name+"(name, start=0.0, unit='', description='', min=None, max=None): declares an FMU "+name)
	}
	return map[string]py.Object{
		"parameter": mk(modeldesc.CausalityParameter),
		"input":     mk(modeldesc.CausalityInput),
		"output":    mk(modeldesc.CausalityOutput),
	}
}

func (d *declarer) declare(fn string, c modeldesc.Causality, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
	var name, start, unit, desc, lo, hi py.Object = nil, py.Float(0), py.String(""), py.String(""), py.None, py.None
	if err := py.ParseTupleAndKeywords(args, kwargs, "U|OUUOO:"+fn, []string{"name", "start", "unit", "description", "min", "max"}, &name, &start, &unit, &desc, &lo, &hi); err != nil {
		return nil, err
	}
	v := decl{name: string(name.(py.String)), unit: string(unit.(py.String)), description: string(desc.(py.String)), causality: c}
	if !declName.MatchString(v.name) {
		return nil, py.ExceptionNewf(py.ValueError, "%s(%q): a variable name is letters, digits and _, in parts joined by dots", fn, v.name)
	}
	for _, o := range d.decls {
		if o.name == v.name {
			return nil, py.ExceptionNewf(py.ValueError, "%s(%q): the plugin declares this name twice", fn, v.name)
		}
	}
	if v.unit != "" {
		if _, err := modeldesc.SIUnits(v.unit); err != nil {
			return nil, py.ExceptionNewf(py.ValueError, "%s(%q): unit %q: %v", fn, v.name, v.unit, err)
		}
	}
	x, err := toFloat(start, "start")
	if err != nil {
		return nil, err
	}
	v.start = x
	for _, b := range []struct {
		obj py.Object
		dst **float64
		key string
	}{{lo, &v.min, "min"}, {hi, &v.max, "max"}} {
		if b.obj == py.None {
			continue
		}
		x, err := toFloat(b.obj, b.key)
		if err != nil {
			return nil, err
		}
		*b.dst = &x
	}
	if v.min != nil && v.max != nil && !(*v.min <= *v.max) {
		return nil, py.ExceptionNewf(py.ValueError, "%s(%q): min %g above max %g", fn, v.name, *v.min, *v.max)
	}
	if (v.min != nil && v.start < *v.min) || (v.max != nil && v.start > *v.max) {
		return nil, py.ExceptionNewf(py.ValueError, "%s(%q): start %g lies outside [min, max]", fn, v.name, v.start)
	}
	if c == modeldesc.CausalityOutput && (v.min != nil || v.max != nil) {
		return nil, py.ExceptionNewf(py.ValueError, "output(%q): outputs take no min or max", v.name)
	}
	k := len(d.decls)
	d.decls = append(d.decls, v)
	obj := &variable{d: d, k: k}
	d.vars = append(d.vars, obj)
	return obj, nil
}

func toFloat(o py.Object, what string) (float64, error) {
	f, err := py.MakeFloat(o)
	if err != nil {
		return 0, py.ExceptionNewf(py.TypeError, "%s must be a number", what)
	}
	x := float64(f.(py.Float))
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, py.ExceptionNewf(py.ValueError, "%s = %g: must be finite", what, x)
	}
	return x, nil
}

// variable is a declared variable; .value reads the FMU's value and, for
// outputs, sets it.
type variable struct {
	d *declarer
	k int
}

func (v *variable) Type() *py.Type { return variableType }

func (v *variable) value() (float64, error) {
	if v.d.values == nil {
		return 0, py.ExceptionNewf(py.RuntimeError, "%s.value: variables have values once the simulation runs (read them in init, step or communication_point)", v.d.decls[v.k].name)
	}
	return (*v.d.values)[v.d.index[v.k]], nil
}

// sim is the object plugin hooks receive.
type sim struct {
	t, h    float64
	bodies  map[string]*body
	cables  map[string]*cable
	winches map[string]*winch
	names   struct{ bodies, cables, winches string }
}

func (s *sim) Type() *py.Type { return simType }

type body struct{ b plant.Body }

func (b *body) Type() *py.Type { return bodyType }

type cable struct{ c plant.Cable }

func (c *cable) Type() *py.Type { return cableType }

type winch struct{ w plant.Winch }

func (w *winch) Type() *py.Type { return winchType }

// newSim wraps a plant for the plugins.
func newSim(p plant.Plant) *sim {
	s := &sim{bodies: map[string]*body{}, cables: map[string]*cable{}, winches: map[string]*winch{}}
	for _, b := range p.Bodies() {
		s.bodies[b.Name()] = &body{b}
	}
	for _, c := range p.Cables() {
		s.cables[c.Name()] = &cable{c}
	}
	for _, w := range p.Winches() {
		s.winches[w.Name()] = &winch{w}
	}
	s.names.bodies, s.names.cables, s.names.winches = keys(s.bodies), keys(s.cables), keys(s.winches)
	return s
}

func keys[T any](m map[string]T) string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	if len(ks) == 0 {
		return "none"
	}
	return strings.Join(ks, ", ")
}

func vec(v geom.Vec3) py.Object { return py.Tuple{py.Float(v.X), py.Float(v.Y), py.Float(v.Z)} }

// vec3 reads three numbers from a tuple or list.
func vec3(o py.Object, what string) (geom.Vec3, error) {
	var items []py.Object
	switch t := o.(type) {
	case py.Tuple:
		items = t
	case *py.List:
		items = t.Items
	}
	if len(items) != 3 {
		return geom.Vec3{}, py.ExceptionNewf(py.TypeError, "%s must be three numbers (x, y, z)", what)
	}
	var xyz [3]float64
	for i, it := range items {
		x, err := toFloat(it, what)
		if err != nil {
			return geom.Vec3{}, err
		}
		xyz[i] = x
	}
	return geom.V(xyz[0], xyz[1], xyz[2]), nil
}

func prop(t *py.Type, name, doc string, get func(py.Object) (py.Object, error), set func(py.Object, py.Object) error) {
	t.Dict[name] = &py.Property{Fget: get, Fset: set, Doc: doc}
}

func readOnly(what string) func(py.Object, py.Object) error {
	return func(py.Object, py.Object) error {
		return py.ExceptionNewf(py.AttributeError, "%s is read-only", what)
	}
}

func method(t *py.Type, name, doc string, f func(self py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error)) {
	t.Dict[name] = py.MustNewMethod(name, f, 0, doc)
}

// lookup finds the scenario's kind (plural kinds, for the message) called
// by the one argument in m; all lists the names there are.
func lookup[T py.Object](m map[string]T, kind, kinds, all string, args py.Tuple) (py.Object, error) {
	if len(args) != 1 {
		return nil, py.ExceptionNewf(py.TypeError, "%s(name) takes one name", kind)
	}
	name, ok := args[0].(py.String)
	if !ok {
		return nil, py.ExceptionNewf(py.TypeError, "%s(name): the name must be a string", kind)
	}
	obj, ok := m[string(name)]
	if !ok {
		return nil, py.ExceptionNewf(py.KeyError, "no %s %q in this scenario (%s: %s)", kind, string(name), kinds, all)
	}
	return obj, nil
}

func init() {
	// gpython readies the types made with py.NewType in its own init and
	// the sandbox's in the sandbox's, before the API's exist: unreadied,
	// they would keep no method resolution order, and the sandbox's guard
	// of attributes of shared types would not see them.
	if err := py.TypeMakeReady(); err != nil {
		panic(fmt.Sprintf("pyplugin: %v", err))
	}
	prop(simType, "time", "Time at the start of the coming step (s).", func(o py.Object) (py.Object, error) { return py.Float(o.(*sim).t), nil }, readOnly("sim.time"))
	prop(simType, "dt", "Length of the coming internal step (s); 0 at communication points.", func(o py.Object) (py.Object, error) { return py.Float(o.(*sim).h), nil }, readOnly("sim.dt"))
	method(simType, "body", "body(name): the body called name.", func(o py.Object, a py.Tuple, _ py.StringDict) (py.Object, error) {
		s := o.(*sim)
		return lookup(s.bodies, "body", "bodies", s.names.bodies, a)
	})
	method(simType, "cable", "cable(name): the cable called name.", func(o py.Object, a py.Tuple, _ py.StringDict) (py.Object, error) {
		s := o.(*sim)
		return lookup(s.cables, "cable", "cables", s.names.cables, a)
	})
	method(simType, "winch", "winch(name): the winch called name.", func(o py.Object, a py.Tuple, _ py.StringDict) (py.Object, error) {
		s := o.(*sim)
		return lookup(s.winches, "winch", "winches", s.names.winches, a)
	})

	b := func(o py.Object) plant.Body { return o.(*body).b }
	prop(bodyType, "name", "The body's name.", func(o py.Object) (py.Object, error) { return py.String(b(o).Name()), nil }, readOnly("body.name"))
	prop(bodyType, "mass", "Mass (kg); 0 for bodies driven by inputs or fixed.", func(o py.Object) (py.Object, error) { return py.Float(b(o).Mass()), nil }, readOnly("body.mass"))
	prop(bodyType, "position", "World position of the centre of mass (m), (x, y, z), z up.", func(o py.Object) (py.Object, error) { return vec(b(o).Position()), nil }, readOnly("body.position"))
	prop(bodyType, "velocity", "World velocity (m/s), (vx, vy, vz).", func(o py.Object) (py.Object, error) { return vec(b(o).Velocity()), nil }, readOnly("body.velocity"))
	prop(bodyType, "angular_velocity", "World angular velocity (rad/s).", func(o py.Object) (py.Object, error) { return vec(b(o).AngularVelocity()), nil }, readOnly("body.angular_velocity"))
	prop(bodyType, "orientation", "Orientation quaternion (w, x, y, z) rotating body axes into the world.", func(o py.Object) (py.Object, error) {
		q := b(o).Orientation()
		return py.Tuple{py.Float(q.W), py.Float(q.X), py.Float(q.Y), py.Float(q.Z)}, nil
	}, readOnly("body.orientation"))
	prop(bodyType, "cable_force", "Force the cables exerted on the body in the last step (N), (fx, fy, fz).", func(o py.Object) (py.Object, error) { return vec(b(o).CableForce()), nil }, readOnly("body.cable_force"))
	method(bodyType, "apply_force", "apply_force(fx, fy, fz, at=None): a force (N, world frame) on the body during the coming internal step, at its centre of mass or at the world point at=(x, y, z).", func(o py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		var fx, fy, fz, at py.Object = nil, nil, nil, py.None
		if err := py.ParseTupleAndKeywords(args, kwargs, "OOO|O:apply_force", []string{"fx", "fy", "fz", "at"}, &fx, &fy, &fz, &at); err != nil {
			return nil, err
		}
		f, err := vec3(py.Tuple{fx, fy, fz}, "apply_force(fx, fy, fz)")
		if err != nil {
			return nil, err
		}
		var point *geom.Vec3
		if at != py.None {
			p, err := vec3(at, "apply_force(at=...)")
			if err != nil {
				return nil, err
			}
			point = &p
		}
		if err := b(o).ApplyForce(f, point); err != nil {
			return nil, py.ExceptionNewf(py.ValueError, "%v", err)
		}
		return py.None, nil
	})
	method(bodyType, "apply_torque", "apply_torque(tx, ty, tz): a torque (N·m, world frame) on the body during the coming internal step.", func(o py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
		var tx, ty, tz py.Object
		if err := py.ParseTupleAndKeywords(args, kwargs, "OOO:apply_torque", []string{"tx", "ty", "tz"}, &tx, &ty, &tz); err != nil {
			return nil, err
		}
		t, err := vec3(py.Tuple{tx, ty, tz}, "apply_torque(tx, ty, tz)")
		if err != nil {
			return nil, err
		}
		if err := b(o).ApplyTorque(t); err != nil {
			return nil, py.ExceptionNewf(py.ValueError, "%v", err)
		}
		return py.None, nil
	})

	c := func(o py.Object) plant.Cable { return o.(*cable).c }
	prop(cableType, "name", "The cable's name.", func(o py.Object) (py.Object, error) { return py.String(c(o).Name()), nil }, readOnly("cable.name"))
	prop(cableType, "tension", "Tension in the last step (N); at the upper end for a cable with mass.", func(o py.Object) (py.Object, error) { return py.Float(c(o).Tension()), nil }, readOnly("cable.tension"))
	prop(cableType, "length", "Free (unstretched) length (m).", func(o py.Object) (py.Object, error) { return py.Float(c(o).FreeLength()), nil }, readOnly("cable.length"))

	w := func(o py.Object) plant.Winch { return o.(*winch).w }
	prop(winchType, "name", "The winch's name.", func(o py.Object) (py.Object, error) { return py.String(w(o).Name()), nil }, readOnly("winch.name"))
	prop(winchType, "speed", "Pay-out rate (m/s), positive lengthening the cable. Reading gives the last step's rate; setting commands the winch in place of its speed input until release().",
		func(o py.Object) (py.Object, error) { return py.Float(w(o).Speed()), nil },
		func(o, v py.Object) error {
			x, err := toFloat(v, "winch.speed")
			if err != nil {
				return err
			}
			// Refused here, at the plugin's line: checked only at the
			// step, it failed the step without naming the plugin.
			if err := port.Velocity.Check("winch.speed", "m/s", x); err != nil {
				return py.ExceptionNewf(py.ValueError, "%v", err)
			}
			w(o).Command(x)
			return nil
		})
	prop(winchType, "commanded", "True while a plugin commands the winch.", func(o py.Object) (py.Object, error) {
		_, ok := w(o).Commanded()
		return py.NewBool(ok), nil
	}, readOnly("winch.commanded"))
	prop(winchType, "force_limit", "Most tension the winch holds (N): beyond it the brake slips and pays out. 0: no limit.",
		func(o py.Object) (py.Object, error) { return py.Float(w(o).ForceLimit()), nil },
		func(o, v py.Object) error {
			x, err := toFloat(v, "winch.force_limit")
			if err != nil {
				return err
			}
			if err := w(o).SetForceLimit(x); err != nil {
				return py.ExceptionNewf(py.ValueError, "%v", err)
			}
			return nil
		})
	method(winchType, "release", "release(): hands the winch back to its speed input.", func(o py.Object, _ py.Tuple, _ py.StringDict) (py.Object, error) {
		w(o).Release()
		return py.None, nil
	})

	vd := func(o py.Object) decl { v := o.(*variable); return v.d.decls[v.k] }
	prop(variableType, "name", "The variable's name without the plugin's prefix.", func(o py.Object) (py.Object, error) { return py.String(vd(o).name), nil }, readOnly("variable.name"))
	prop(variableType, "value", "The variable's value; plugins set outputs only.",
		func(o py.Object) (py.Object, error) {
			x, err := o.(*variable).value()
			return py.Float(x), err
		},
		func(o, val py.Object) error {
			v := o.(*variable)
			d := vd(o)
			if d.causality != modeldesc.CausalityOutput {
				return py.ExceptionNewf(py.AttributeError, "%s is an %s: only outputs are set by the plugin", d.name, d.causality)
			}
			x, err := toFloat(val, d.name+".value")
			if err != nil {
				return err
			}
			if _, err := v.value(); err != nil {
				return err
			}
			(*v.d.values)[v.d.index[v.k]] = x
			return nil
		})
}

// vocabulary is what plugins may name: the sandbox's builtins and the
// plugin API's functions and types.
func vocabulary() *sandbox.Vocabulary {
	return sandbox.NewVocabulary((&declarer{}).functions(), []*py.Type{simType, bodyType, cableType, winchType, variableType})
}
