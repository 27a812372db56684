"""Systems of co-simulation FMUs from SSP 1.0 packages: :func:`load_ssp` reads one, :func:`run` steps it.

    import cablefmu.system as system
    s = system.load_ssp("out/crane-system/gantry-hoist.ssp", parameter_sets=["resources/cases/20t.ssv"])
    r = system.run(s, stop_time=30, step=0.01, order="gauss-seidel",
                   inputs={"speedCommand": cablefmu.Table([0, 2, 10, 12], [0, 1, 1, 0])})
    print(max(r["cable.suspension.fz"]))

An SSP package (a zip archive) holds ``SystemStructure.ssd`` and, under ``resources/``, the FMUs its components name
and the parameter values (``.ssv``) its bindings name. :func:`load_ssp` reads SSP 1.0's components (FMUs, FMI 2.0
or 3.0), their connectors (inputs, outputs, parameters, with units), the system's own inputs and outputs, the
connections, the parameter bindings and the unit definitions, and refuses, before any step, a system it cannot run
faithfully, with one line naming the element: a connection to a connector or element that does not exist, units
that differ, a connector the FMU does not have (or of another causality), an FMU missing from the package, an
input fed twice, a parameter value outside the package, and an algebraic loop of direct feedthrough (outputs that
depend on inputs at the same instant) that the order of the steps cannot break.

:func:`run` steps every component at a fixed communication step: in Gauss-Seidel order (a component's inputs from
the outputs of those already stepped to the end of the step, the others' at its start) or Jacobi order (every input
from the outputs at the step's start). The components are initialized in the same order, the connected inputs set
from the outputs of those initialized before, so that a cable starts hanging from where its crane is. The coupling
is explicit: each component sees the others' outputs of a communication point, and a stiff interface (a stiff boom
tip under a heavy load) needs a step small enough for it.
"""

import math
import operator
import os
import warnings
import xml.etree.ElementTree as ET
import zipfile

from . import fmucommon
from .sim import FMUError, Result, Table, _cached, _sha256, _signal, check_steps, load

__all__ = ["SystemError", "System", "Component", "load_ssp", "run"]

SSD = "http://ssp-standard.org/SSP1/SystemStructureDescription"
SSC = "http://ssp-standard.org/SSP1/SystemStructureCommon"
SSV = "http://ssp-standard.org/SSP1/SystemStructureParameterValues"
NS = {"ssd": SSD, "ssc": SSC, "ssv": SSV}
TYPES = ("Real", "Integer", "Boolean", "String", "Enumeration", "Binary")


class SystemError(Exception):  # noqa: A001 (a system's error, as FMUError is an FMU's)
    """A system that cannot be run, in one line naming the element (a component, a connector, a connection, a
    parameter)."""


class Connector:
    """A connector: its ``name``, ``kind`` (input, output, parameter, ...) and ``unit`` (None where it gives none)."""

    def __init__(self, name, kind, unit):
        self.name, self.kind, self.unit = name, kind, unit
        self.type = None  # the SSD's type element (Real, Integer, ...), None where it gives none

    def __repr__(self):
        return "Connector(%r, %r, %r)" % (self.name, self.kind, self.unit)


class Component:
    """A component: its ``name``, the ``fmu`` it runs (a loaded :class:`cablefmu.FMU`), its ``connectors`` by name
    and the ``parameters`` its bindings set (name -> value)."""

    def __init__(self, name, fmu, connectors, parameters):
        self.name, self.fmu, self.connectors, self.parameters = name, fmu, connectors, parameters

    def __repr__(self):
        return "Component(%r, %r)" % (self.name, self.fmu)


class System:
    """A system read from an SSP package: ``name``, ``components`` (in the package's order), ``inputs`` and
    ``outputs`` (the system's own connectors by name), ``connections`` (``((element, connector), (element,
    connector))``, the element None for the system itself), ``start_time`` and ``stop_time`` (the default
    experiment's: 0 and None where it gives none), ``folder`` (where the package is unpacked), ``units`` (the SSD's unit definitions: name -> exponents of kg, m,
    s, A, K, mol, cd, rad) and ``unconnected`` (the components' inputs no connection feeds, as ``component.variable``,
    each also warned of)."""

    def __init__(self, name, components, inputs, outputs, connections, stop_time, folder):
        self.name, self.components, self.inputs, self.outputs = name, components, inputs, outputs
        self.connections, self.stop_time, self.folder = connections, stop_time, folder
        self.start_time = 0.0
        self.units = {}

    def component(self, name):
        for c in self.components:
            if c.name == name:
                return c
        raise KeyError(name)


def _unpack(path):
    if not zipfile.is_zipfile(path):
        raise SystemError("%s: not an SSP package (a zip archive)" % path)
    digest = _sha256(path)
    return _cached(os.path.abspath(path), "ssp-" + digest[:20], digest, marker="SystemStructure.ssd")


def _connectors(parent, where):
    out = {}
    box = parent.find("ssd:Connectors", NS)
    for c in (box if box is not None else []):
        if c.tag != "{%s}Connector" % SSD:
            continue
        name, kind = c.get("name"), c.get("kind")
        if not name or not kind:
            raise SystemError("%s: a connector without a name or kind" % where)
        if name in out:
            raise SystemError("%s: connector %r given twice" % (where, name))
        unit, kind_of = None, None
        for t in TYPES:
            typed = c.find("ssc:" + t, NS)
            if typed is not None:
                unit, kind_of = typed.get("unit"), t
        out[name] = Connector(name, kind, unit)
        out[name].type = kind_of
    return out


def _values(folder, source, where):
    """The parameter values of an .ssv file in the package: name -> (value, unit, SSP type); a name given twice
    and an Integer that is no whole number are refused."""
    path = os.path.normpath(os.path.join(folder, source))
    if not path.startswith(os.path.normpath(folder) + os.sep):
        raise SystemError("%s: parameter values %r lie outside the package" % (where, source))
    if not os.path.isfile(path):
        raise SystemError("%s: parameter values %r are not in the package" % (where, source))
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise SystemError("%s: parameter values %r: %s" % (where, source, e)) from None
    out = {}
    for p in root.iter("{%s}Parameter" % SSV):
        name = p.get("name")
        if name in out:
            raise SystemError("%s: parameter %r is given twice in %r" % (where, name, source))
        for t in ("Real", "Integer", "Boolean"):
            v = p.find("ssv:" + t, NS)
            if v is not None:
                raw = v.get("value")
                value = {"true": 1.0, "false": 0.0}.get(raw, None) if t == "Boolean" else None
                try:
                    value = float(int(raw)) if t == "Integer" else float(raw) if value is None else value
                except (TypeError, ValueError):
                    raise SystemError("%s: parameter %r in %r: value %r is not %s" % (
                        where, name, source, raw, "a whole number" if t == "Integer" else "a number")) from None
                out[name] = (value, v.get("unit"), t)
        if name not in out:
            raise SystemError("%s: parameter %r in %r has no Real, Integer or Boolean value" % (where, name, source))
    return out


def _variable(comp, name):
    return comp.fmu.md.variables.get(name)


def _base_type(var):
    """The SSP type of an FMU variable: FMI 3.0's Float64 and Float32 are Real, its IntNN Integer."""
    t = var.type
    if t.startswith("Float"):
        return "Real"
    if t.startswith(("Int", "UInt")):
        return "Integer"
    return t


def _fmu_kind(var):
    return {"calculatedParameter": "calculatedParameter"}.get(var.causality, var.causality)


def _bindings(el, where):
    """The parameter bindings of an ssd:System or ssd:Component: (prefix, source) pairs; a parameter mapping and
    inline values are refused."""
    out = []
    binds = el.find("ssd:ParameterBindings", NS)
    for b in (binds if binds is not None else []):
        if b.find("ssd:ParameterMapping", NS) is not None:
            raise SystemError("%s: a parameter binding with a parameter mapping: not supported (name the parameters "
                              "as the FMU does)" % where)
        source_ssv = b.get("source")
        if not source_ssv:
            inline = b.find("ssd:ParameterValues", NS)
            raise SystemError("%s: a parameter binding without a source%s" % (
                where, " (inline values are not supported)" if inline is not None else ""))
        out.append((b.get("prefix") or "", source_ssv))
    return out


def _bind_in(components, qname, value, unit, typ, where):
    """Binds the parameter named component.variable: of the components whose name and a dot begin it, the one with
    such a parameter (component names may hold dots: crane and crane.trolley both begin
    crane.trolley.torqueLimit, which only the crane's trolley.torqueLimit fits)."""
    fits = [c for c in components if qname.startswith(c.name + ".") and len(qname) > len(c.name) + 1]
    if not fits:
        raise SystemError("%s: parameter %r names no component (want component.variable; components: %s)"
                          % (where, qname, ", ".join(c.name for c in components)))
    has = [c for c in fits if getattr(c.fmu.md.variables.get(qname[len(c.name) + 1:]), "causality", None) == "parameter"]
    if len(has) > 1:
        raise SystemError("%s: parameter %r is ambiguous: %s" % (where, qname, ", ".join(
            "%s's %s" % (c.name, qname[len(c.name) + 1:]) for c in has)))
    comp = has[0] if has else max(fits, key=lambda c: len(c.name))  # none: the longest, whose error says so
    _bind(comp.fmu, comp.parameters, qname[len(comp.name) + 1:], value, unit, typ, where)


def load_ssp(path, parameter_sets=()):
    """The system of the SSP package at ``path``, its FMUs loaded and checked (see the module's documentation).
    ``parameter_sets``: paths in the package of further .ssv files, applied after the package's own bindings,
    their parameters named ``component.variable`` (a load case)."""
    folder = _unpack(path)
    ssd = os.path.join(folder, "SystemStructure.ssd")
    if not os.path.isfile(ssd):
        raise SystemError("%s: no SystemStructure.ssd in the package" % path)
    try:
        root = ET.parse(ssd).getroot()
    except ET.ParseError as e:
        raise SystemError("SystemStructure.ssd: %s" % e) from None
    if root.tag != "{%s}SystemStructureDescription" % SSD:
        raise SystemError("SystemStructure.ssd: the root is %s, want ssd:SystemStructureDescription" % root.tag)
    sysel = root.find("ssd:System", NS)
    if sysel is None:
        raise SystemError("SystemStructure.ssd: no ssd:System")
    name = sysel.get("name") or os.path.splitext(os.path.basename(path))[0]
    own = _connectors(sysel, "system %s" % name)
    components = []
    elements = sysel.find("ssd:Elements", NS)
    for el in (elements if elements is not None else []):
        if el.tag != "{%s}Component" % SSD:
            raise SystemError("system %s: element %s (%s) is not a component: nested systems are not supported"
                              % (name, el.get("name"), el.tag.split("}")[-1]))
        cname, source = el.get("name"), el.get("source")
        where = "component %s" % cname
        if not cname or not source:
            raise SystemError("system %s: a component without a name or source" % name)
        if any(c.name == cname for c in components):
            raise SystemError("%s: given twice" % where)
        if el.get("implementation", "any") not in ("any", "CoSimulation"):
            raise SystemError("%s: implementation %r: only co-simulation FMUs are run" % (where, el.get("implementation")))
        kind = el.get("type", "application/x-fmu-sharedlibrary")
        if kind != "application/x-fmu-sharedlibrary":
            raise SystemError("%s: type %r: only FMUs (application/x-fmu-sharedlibrary) are supported" % (where, kind))
        fmu_path = os.path.normpath(os.path.join(folder, source))
        if not fmu_path.startswith(os.path.normpath(folder) + os.sep) or not os.path.isfile(fmu_path):
            raise SystemError("%s: its FMU %r is not in the package" % (where, source))
        try:
            fmu = load(fmu_path)
        except FMUError as e:
            raise SystemError("%s: %s" % (where, e)) from None
        connectors = _connectors(el, where)
        for c in connectors.values():
            var = fmu.md.variables.get(c.name)
            if var is None:
                raise SystemError("%s: connector %r: %s has no such variable" % (where, c.name, fmu.name))
            if c.kind != _fmu_kind(var) and not (c.kind == "parameter" and var.causality == "parameter"):
                raise SystemError("%s: connector %r is an %s, %s's variable an %s" % (where, c.name, c.kind, fmu.name, var.causality))
            if c.type and _base_type(var) != c.type:
                raise SystemError("%s: connector %r of type %s, %s's variable of type %s" % (where, c.name, c.type, fmu.name, var.type))
            unit = getattr(var, "unit", None)
            if c.unit and unit and c.unit != unit:
                raise SystemError("%s: connector %r in %s, %s's variable in %s" % (where, c.name, c.unit, fmu.name, unit))
            if c.unit is None:
                c.unit = unit
            if c.type is None:
                c.type = _base_type(var)
        params = {}
        for prefix, source_ssv in _bindings(el, where):
            for pname, (value, unit, typ) in _values(folder, source_ssv, where).items():
                _bind(fmu, params, prefix + pname, value, unit, typ, where)
        components.append(Component(cname, fmu, connectors, params))
    # The system's own bindings name their parameters component.variable
    # (or bare, with the component's name and a dot as the prefix): applied
    # after the components' own, before the load cases.
    where = "system %s" % name
    for prefix, source_ssv in _bindings(sysel, where):
        at = "%s: parameter binding %s" % (where, source_ssv)
        for pname, (value, unit, typ) in _values(folder, source_ssv, at).items():
            _bind_in(components, prefix + pname, value, unit, typ, at)
    for ps in parameter_sets:
        for qname, (value, unit, typ) in _values(folder, ps, "parameter set %s" % ps).items():
            _bind_in(components, qname, value, unit, typ, "parameter set %s" % ps)
    connections = []
    fed = {}
    conns = sysel.find("ssd:Connections", NS)
    for c in (conns if conns is not None else []):
        for t in c:
            if t.tag.startswith("{%s}" % SSC) and t.tag.endswith("Transformation") or t.tag == "{%s}BooleanMappingTransformation" % SSC:
                raise SystemError("connection %s: a %s: not supported (connect values as they are)" % (_label(c), t.tag.split("}")[-1]))
        ends = []
        for side in ("start", "end"):
            element, connector = c.get(side + "Element"), c.get(side + "Connector")
            label = "%s.%s" % (element, connector) if element else connector
            if element is None:
                con = own.get(connector)
                if con is None:
                    raise SystemError("connection %s: system %s has no connector %r" % (_label(c), name, connector))
            else:
                comp = next((x for x in components if x.name == element), None)
                if comp is None:
                    raise SystemError("connection %s: no element %r" % (_label(c), element))
                con = comp.connectors.get(connector)
                if con is None:
                    raise SystemError("connection %s: component %s has no connector %r" % (_label(c), element, connector))
            ends.append((element, connector, con, label))
        (se, sc, scon, sl), (ee, ec, econ, el_) = ends
        if scon.unit and econ.unit and scon.unit != econ.unit:
            raise SystemError("connection %s: units differ, %s in %s, %s in %s" % (_label(c), sl, scon.unit, el_, econ.unit))
        if scon.type and econ.type and scon.type != econ.type:
            # An Integer or Boolean system input on a Real passed 0.7 on as it was.
            raise SystemError("connection %s: types differ, %s of type %s, %s of type %s" % (_label(c), sl, scon.type, el_, econ.type))
        if (se is None and scon.kind != "input") or (se is not None and scon.kind != "output"):
            raise SystemError("connection %s: starts at %s, an %s" % (_label(c), sl, scon.kind))
        if (ee is None and econ.kind != "output") or (ee is not None and econ.kind != "input"):
            raise SystemError("connection %s: ends at %s, an %s" % (_label(c), el_, econ.kind))
        if (ee, ec) in fed:
            raise SystemError("connection %s: %s is fed already by %s" % (_label(c), el_, fed[(ee, ec)]))
        fed[(ee, ec)] = sl
        connections.append(((se, sc), (ee, ec)))
    start, stop = 0.0, None
    de = root.find("ssd:DefaultExperiment", NS)
    for key in ("startTime", "stopTime"):
        if de is None or not de.get(key):
            continue
        try:
            x = float(de.get(key))
        except ValueError:
            raise SystemError("DefaultExperiment: %s %r is not a number" % (key, de.get(key))) from None
        if not math.isfinite(x):
            raise SystemError("DefaultExperiment: %s %r is not finite" % (key, de.get(key)))
        if key == "startTime":
            start = x
        else:
            stop = x
    if stop is not None and not stop > start:
        raise SystemError("DefaultExperiment: stopTime %g s does not exceed startTime %g s" % (stop, start))
    if not components:
        raise SystemError("system %s: no components" % name)
    s = System(name, components, {k: v for k, v in own.items() if v.kind == "input"},
               {k: v for k, v in own.items() if v.kind == "output"}, connections, stop, folder)
    s.start_time = start
    # A component's input that no connection feeds keeps its start value: a
    # line dropped from a hand-edited SSD (the crane's cable.fz: the crane
    # no longer felt its 20 t load), with its connector or without, is
    # said, not silently run.
    s.unconnected = ["%s.%s" % (c.name, k) for c in components
                     for k, var in c.fmu.md.variables.items() if var.causality == "input" and (c.name, k) not in fed]
    for label in s.unconnected:
        warnings.warn("system %s: %s is an input that no connection feeds: it keeps its start value"
                      % (name, label), RuntimeWarning, stacklevel=2)
    s.units = _units(root)
    _check_loops(s)
    return s


_EXPONENTS = ("kg", "m", "s", "A", "K", "mol", "cd", "rad")


def _units(root):
    """The SSD's unit definitions: name -> the SI base units' exponents (kg, m, s, A, K, mol, cd, rad)."""
    out = {}
    units = root.find("ssd:Units", NS)
    for u in (units if units is not None else []):
        base = u.find("ssc:BaseUnit", NS)
        if u.get("name") and base is not None:
            try:
                out[u.get("name")] = tuple(int(base.get(e, "0")) for e in _EXPONENTS)
            except ValueError:
                raise SystemError("unit %s: its base unit's exponents must be integers" % u.get("name")) from None
    return out


# A force (kg m s^-2) or a torque (kg m^2 s^-2): what a mechanical FMU answers a motion with.
_EFFORTS = {(1, 1, -2, 0, 0, 0, 0, 0), (1, 2, -2, 0, 0, 0, 0, 0), (1, 2, -2, 0, 0, 0, 0, -1)}


def _effort(unit, units):
    """Whether a connector in ``unit`` carries a force or a torque (by the SSD's definition of the unit, else by
    the SI symbols N and N.m)."""
    if unit in units:
        return units[unit] in _EFFORTS
    return unit in ("N", "N.m", "N*m")


def _label(c):
    return "%s.%s -> %s.%s" % (c.get("startElement") or "", c.get("startConnector"), c.get("endElement") or "", c.get("endConnector"))


def _bind(fmu, params, pname, value, unit, typ, where):
    var = fmu.md.variables.get(pname)
    if var is None or var.causality != "parameter":
        raise SystemError("%s: parameter %r: %s has no such parameter" % (where, pname, fmu.name))
    if typ != _base_type(var):
        # A Boolean true for a mass was 1 kg.
        raise SystemError("%s: parameter %r is a %s value, %s's %s is %s" % (where, pname, typ, fmu.name, pname, _base_type(var)))
    vu = getattr(var, "unit", None)
    if unit and vu and unit != vu:
        raise SystemError("%s: parameter %r in %s, %s's in %s" % (where, pname, unit, fmu.name, vu))
    params[pname] = value


def _feedthrough(comp):
    """The pairs (output, input) of a component whose output depends on the input at the same instant, from its
    model description's ModelStructure: FMI 2.0's Outputs/Unknown (indices of ModelVariables, from 1) and FMI
    3.0's Output (value references); an output without dependencies listed depends on every input."""
    md = comp.fmu.md
    root = ET.parse(os.path.join(comp.fmu.folder, "modelDescription.xml")).getroot()
    ms = root.find("ModelStructure")
    inputs = {v.name for v in md.variables.values() if v.causality == "input"}
    out = set()
    if ms is None:
        return out
    if comp.fmu.version == 2:
        order = [v.get("name") for v in root.find("ModelVariables") or []]
        for u in ms.findall("Outputs/Unknown"):
            name = order[int(u.get("index")) - 1]
            deps = u.get("dependencies")
            ins = inputs if deps is None else {order[int(i) - 1] for i in deps.split()}
            out.update((name, i) for i in ins if i in inputs)
    else:
        by_vr = {v.value_reference: v.name for v in md.variables.values()}
        for u in ms.findall("Output"):
            name = by_vr.get(int(u.get("valueReference")))
            deps = u.get("dependencies")
            ins = inputs if deps is None else {by_vr.get(int(i)) for i in deps.split()}
            out.update((name, i) for i in ins if i in inputs)
    return out


def _check_loops(s):
    """Refuse a cycle of direct feedthrough through the connections: no order of steps breaks it."""
    through = {c.name: _feedthrough(c) for c in s.components}
    edges = {}
    for (se, sc), (ee, ec) in s.connections:
        if se is None or ee is None:
            continue
        for o, i in through[ee]:
            if i == ec:
                edges.setdefault((se, sc), []).append((ee, o))
    seen, stack = set(), []

    def visit(node):
        if node in stack:
            loop = stack[stack.index(node):] + [node]
            raise SystemError("algebraic loop: %s: outputs that depend at once on inputs fed by each other; no order "
                              "of the steps breaks it" % " -> ".join("%s.%s" % n for n in loop))
        if node in seen:
            return
        stack.append(node)
        for nxt in edges.get(node, []):
            visit(nxt)
        stack.pop()
        seen.add(node)

    for node in list(edges):
        visit(node)


def run(system, stop_time=None, step=None, order="gauss-seidel", inputs=None, outputs=None, start_time=None,
        coupling="explicit"):
    """Step ``system`` from ``start_time`` to ``stop_time`` (defaults the package's) at the communication step
    ``step`` (default the smallest of the components' own) in ``order`` ("gauss-seidel" or "jacobi"). ``inputs``:
    the system's inputs by name, as :func:`cablefmu.simulate` takes them (a number, a callable of the time, a
    ``(times, values)`` pair); ``outputs``: names ``component.variable`` to record (default every connected output
    and the system's outputs). Returns a :class:`cablefmu.Result`; :class:`FMUError` names the component whose step
    failed.

    ``coupling="implicit"`` treats the connections linearly implicitly (``order`` then does not apply). The
    unknowns are the connected outputs' values at the step's end, Y; stepping every component from the step's start
    with its connected inputs given by Y is a map Φ, and the coupling takes one Newton step on Y = Φ(Y) from the
    values held, Y0: Y = Y0 + (I − J)^-1 (Φ(Y0) − Y0). Φ(Y0) is the explicit (Jacobi) step; J, the map's Jacobian,
    is taken by finite differences, each column stepping again from a saved state only the components the perturbed
    value feeds, and kept while the operating point stays near (see _JACOBIAN_AGE). Each component then steps once
    more, from its saved state, with its inputs given by Y: a motion (position, velocity, angle) from its value at
    the step's start to Y along the step, as the input's derivative (fmi2SetRealInputDerivatives); a force or a
    torque (by the connector's unit) as Y all through the step, the force the source's step ended with, as a
    cable FMU's step applies its force through the step (the impulse each side gets is the same). A stiff
    interface (a stiff boom tip under a heavy load) then steps stably where the explicit coupling diverges. It needs
    FMI 2.0 components that save and restore their state and interpolate their inputs; it costs each component two
    steps and a restore of its state per communication step, and one step per column when the Jacobian is taken."""
    if order not in ("gauss-seidel", "jacobi"):
        raise ValueError("order %r: want gauss-seidel or jacobi" % order)
    if coupling not in ("explicit", "implicit"):
        raise ValueError("coupling %r: want explicit or implicit" % coupling)
    if coupling == "implicit":
        for c in system.components:
            md = c.fmu.md
            if c.fmu.version != 2 or not md.can_get_and_set_fmu_state or not md.can_interpolate_inputs:
                raise SystemError("component %s: the implicit coupling needs an FMI 2.0 FMU that saves and restores "
                                  "its state and interpolates its inputs" % c.name)
    stop = system.stop_time if stop_time is None else stop_time
    start_time = system.start_time if start_time is None else start_time
    if not math.isfinite(start_time):
        raise ValueError("start_time %r must be finite" % start_time)
    if stop is None or not (stop > start_time) or not math.isfinite(stop):
        raise ValueError("stop_time %r must be finite and exceed start_time %r" % (stop, start_time))
    h = float(step) if step is not None else min(c.fmu.default_step() for c in system.components)
    if not (h > 0 and math.isfinite(h)):
        raise ValueError("step %r: must be positive and finite" % step)
    if int(math.ceil((stop - start_time) / h - 1e-9)) < 1:
        raise ValueError("stop_time %r: less than a step (%g s) after start_time %r" % (stop, h, start_time))
    check_steps(start_time, stop, h)
    signals = {}
    for n, spec in (inputs or {}).items():
        if n not in system.inputs:
            raise SystemError("system %s has no input %r (it has %s)" % (system.name, n, ", ".join(sorted(system.inputs)) or "none"))
        signals[n] = _signal(n, spec)
    comps = system.components
    index = {c.name: k for k, c in enumerate(comps)}
    # Per component: (its input, where from) where from is (component index, output) or the system input's name.
    feeds = [[] for _ in comps]
    for (se, sc), (ee, ec) in system.connections:
        if ee is None:
            continue
        feeds[index[ee]].append((ec, (index[se], sc) if se is not None else sc))
    # A system input not given: its consumers' start value, where they agree on one.
    for n in system.inputs:
        if n in signals:
            continue
        starts = {comps[k].fmu.md.variables[i].start for k, fs in enumerate(feeds) for i, src in fs if src == n}
        if len(starts) > 1 or None in starts:
            raise SystemError("system input %s is not given, and what it feeds has no one start value to keep: give "
                              "it" % n)
        if starts:
            start_value = float(starts.pop())
            signals[n] = lambda t, v=start_value: v
    # The system's outputs, by their own names: from a component's output, or a system input passed on.
    own_outputs = {ec: (index[se], sc) if se is not None else sc for (se, sc), (ee, ec) in system.connections if ee is None}
    names = list(outputs) if outputs else sorted({"%s.%s" % (se, sc) for (se, sc), _ in system.connections if se is not None}) \
        + sorted(own_outputs)
    wanted = []
    for n in names:
        if n in own_outputs:
            wanted.append((None, n))
            continue
        cname, _, var = n.partition(".")
        if cname not in index or var not in comps[index[cname]].fmu.md.variables:
            raise SystemError("output %r names no component's variable nor the system's output" % n)
        wanted.append((index[cname], var))
    produced = [sorted({sc for (se, sc), _ in system.connections if se == c.name}) for c in comps]
    insts = []
    result = Result(time=[])
    for n, (k, var) in zip(names, wanted):
        result[n] = []
        if k is None:
            result.units[n] = system.outputs[var].unit or "1"
        else:
            result.units[n] = getattr(comps[k].fmu.md.variables[var], "unit", None) or "1"
    t = float(start_time)
    current = [dict() for _ in comps]  # the outputs last read, per component

    def read(k):
        vals = insts[k].get(produced[k]) if produced[k] else []
        current[k] = dict(zip(produced[k], vals))

    def value(src, at):
        if isinstance(src, tuple):
            return current[src[0]][src[1]]
        return signals[src](at) if src in signals else 0.0

    # An FMI 2.0 component that interpolates its inputs gets their slopes over each step
    # (fmi2SetRealInputDerivatives), so that it follows them within the step instead of a staircase: a system input
    # given by samples along its ramp (a speed controller's torque sampled at the end of a held step is biased low);
    # in the explicit coupling, a motion (a connected input that is no force or torque) in Gauss-Seidel order from
    # its source's value at the step's start to the one its step ended with, and otherwise along the source's output
    # derivative where it gives one. A cable FMU given a suspension point's samples alone follows them a
    # communication step late, and that lag swung a gantry's load 2 to 4 % further than the cable's own fine steps.
    # Per component: (input, how, where from) with how "signal", "interpolated" or "extrapolated".
    ramps = [[] for _ in comps]
    for k, c in enumerate(comps):
        if c.fmu.version != 2 or not c.fmu.md.can_interpolate_inputs:
            continue
        for i, src in feeds[k]:
            if _base_type(c.fmu.md.variables[i]) != "Real":
                continue  # a switch or a count: set, never ramped
            if not isinstance(src, tuple):
                if isinstance(signals.get(src), Table):
                    ramps[k].append((i, "signal", src))
            elif coupling == "explicit" and not _effort(c.connectors[i].unit, system.units):
                if order == "gauss-seidel" and src[0] < k:
                    ramps[k].append((i, "interpolated", src))
                elif comps[src[0]].fmu.version == 2 and comps[src[0]].fmu.md.max_output_derivative_order >= 1:
                    ramps[k].append((i, "extrapolated", src))
    interpolated = [{i for i, how, _ in ramps[k] if how == "interpolated"} for k in range(len(comps))]
    # Per source component, the outputs whose derivatives are read at each step's start.
    rates = [sorted({src[1] for r in ramps for _, how, src in r if how == "extrapolated" and src[0] == j}) for j in range(len(comps))]
    derivs = [None] * len(comps)
    used = [None] * len(comps)  # the connected inputs each component was initialized with

    def start(k):
        c = comps[k]
        inst = c.fmu.instance("%s-%s" % (system.name, c.name))
        if k < len(insts):
            insts[k].free()
            insts[k] = inst
        else:
            insts.append(inst)
        if ramps[k]:
            derivs[k] = inst.s.real_input_derivatives_setter([i for i, _, _ in ramps[k]], 1)
        # Inputs fed by the system and by components initialized already (in the first round, those before it).
        known = {i: value(src, t) for i, src in feeds[k] if not isinstance(src, tuple) or current[src[0]]}
        try:
            inst.initialize(c.parameters, known, start_time=t)
        except FMUError as e:
            raise FMUError("component %s: %s" % (c.name, e), e.log, t) from None
        used[k] = {i: known.get(i) for i, src in feeds[k] if isinstance(src, tuple)}
        read(k)

    try:
        for k in range(len(comps)):
            start(k)
        # A component fed by one after it started from its inputs' start values, not from what they are: such a
        # component (a crane whose tip the load's weight bends) starts again from the values the others give, until
        # every connected input is what its source gives, so that the system starts at rest where it is at rest.
        for _ in range(_START_ROUNDS):
            stale = [k for k in range(len(comps)) if any(not _agree(used[k][i], value(src, t))
                                                           for i, src in feeds[k] if isinstance(src, tuple))]
            if not stale:
                break
            for k in stale:
                start(k)
        else:
            k = stale[0]
            i, src = next((i, src) for i, src in feeds[k] if isinstance(src, tuple) and not _agree(used[k][i], value(src, t)))
            raise SystemError("the start values do not agree after %d rounds of starting again: %s.%s started from %r, "
                              "%s.%s gives %r" % (_START_ROUNDS, comps[k].name, i, used[k][i], comps[src[0]].name, src[1],
                                                  value(src, t)))
        # Built once for every step: each component's setter of the inputs it is fed and getter of the outputs it
        # gives; the recorded variables read per component, those it gives taken from what was read.
        setters = [insts[k].setter([i for i, _ in feeds[k]]) if feeds[k] else None for k in range(len(comps))]
        getters = [insts[k].getter(produced[k]) if produced[k] else None for k in range(len(comps))]
        extra = []
        for k in sorted({k for k, _ in wanted if k is not None}):
            more = sorted({var for kk, var in wanted if kk == k and var not in produced[k]})
            if more:
                extra.append((k, more, insts[k].getter(more)))

        def output(k, var, at, got):
            if k is not None:
                return got[k][var]
            return value(own_outputs[var], at)

        def fetch(k):
            current[k] = dict(zip(produced[k], getters[k]())) if getters[k] else {}

        prev = list(current)  # in Gauss-Seidel order, each component's outputs before its step

        rows = []

        def record(at):
            result["time"].append(at)
            if not extra:
                rows.append([output(k, var, at, current) for k, var in wanted])
                return
            got = [dict(current[k]) for k in range(len(comps))]
            for k, more, get in extra:
                got[k].update(zip(more, get()))
            rows.append([output(k, var, at, got) for k, var in wanted])

        record(t)
        steps = int(math.ceil((stop - start_time) / h - 1e-9))
        implicit = None
        if coupling == "implicit":
            held = [[_effort(c.connectors[i].unit, system.units) for i, _ in feeds[k]] for k, c in enumerate(comps)]
            real = [[_base_type(c.fmu.md.variables[i]) == "Real" for i, _ in feeds[k]] for k, c in enumerate(comps)]
            implicit = _Implicit(comps, insts, feeds, produced, current, signals, getters, held, real)
        for n in range(steps):
            dt = min(h, stop - t)
            if implicit is not None:
                implicit.step(t, dt)
                t = start_time + (n + 1) * h if n + 1 < steps else stop
                record(t)
                continue
            slope = {}  # the sources' output derivatives at the step's start
            for j, names_j in enumerate(rates):
                if names_j:
                    slope.update(zip(((j, o) for o in names_j), insts[j].s.get_real_output_derivatives(names_j, 1)))
            if order == "jacobi":
                for k in range(len(comps)):
                    if setters[k] is not None:
                        setters[k]([value(src, t) for _, src in feeds[k]])
            for k, c in enumerate(comps):
                if order == "gauss-seidel" and setters[k] is not None:
                    setters[k]([prev[src[0]][src[1]] if i in interpolated[k] else value(src, t) for i, src in feeds[k]])
                if derivs[k] is not None:
                    derivs[k]([_slope(signals[src], t, dt) if how == "signal" else
                               (current[src[0]][src[1]] - prev[src[0]][src[1]]) / dt if how == "interpolated" else slope[src]
                               for _, how, src in ramps[k]])
                try:
                    insts[k].step(t, dt)
                except fmucommon.FMIError as e:
                    raise FMUError("component %s: step at t = %.6g s failed: %s" % (c.name, t, e), e.messages, t) from None
                if order == "gauss-seidel":
                    prev[k] = current[k]
                    fetch(k)
            if order == "jacobi":
                for k in range(len(comps)):
                    fetch(k)
            t = start_time + (n + 1) * h if n + 1 < steps else stop
            record(t)
        if implicit is not None:
            result.jacobians = implicit.evaluations
    finally:
        for inst in insts:
            inst.free()
    for n, col in zip(names, zip(*rows)):
        result[n] = list(col)
    return result


# The implicit coupling takes the interface's Jacobian again after _JACOBIAN_AGE seconds of simulated time, or when
# the communication step changes, or when the operating point it was taken at has moved far: the connected values'
# changes since, each scaled by the largest magnitude it has had, above _JACOBIAN_MOVE in root mean square (a
# cable gone slack, a load set down). The Jacobian is there for the coupling's stability, which needs the
# interface's stiffness, not its exact value, and a mechanical interface's stiffness changes on the load's time
# scale (its swing, seconds): on the boom crane carrying 20 t, lifting and slewing, the Jacobian kept this way
# changed the peak tension by under 0.01 % and the least by 0.02 % against one taken at every step. Neither bound
# is measured on a clock.
_JACOBIAN_AGE = 0.5  # s
_JACOBIAN_MOVE = 0.5


class _Implicit:
    """The linearly implicit coupling of :func:`run` (see there): the state kept between steps and one step."""

    def __init__(self, comps, insts, feeds, produced, current, signals, getters, held, real):
        self.comps, self.insts, self.produced, self.current, self.getters = comps, insts, produced, current, getters
        # The unknowns: every connected source output (component, name) feeding Real inputs, and which components
        # each feeds. A switch or a count passes on as the explicit coupling passes it: its value at the step's start.
        self.keys = sorted({src for k, fs in enumerate(feeds) for (_, src), r in zip(fs, real[k]) if isinstance(src, tuple) and r})
        index = {key: i for i, key in enumerate(self.keys)}
        self.consumers = [sorted({k for k, fs in enumerate(feeds) for _, src in fs if src == key}) for key in self.keys]
        # Per component: its setters of values and of the Real inputs' slopes, where each input comes from (an
        # unknown's index, or a signal of the time), and which unknowns its outputs are (output position, index).
        self.setters, self.sources, self.real, self.gives = [], [], [], []
        for k, inst in enumerate(insts):
            names = [i for i, _ in feeds[k]]
            reals = [i for i, r in zip(names, real[k]) if r]
            self.setters.append((inst.setter(names), inst.s.real_input_derivatives_setter(reals, 1) if reals else None)
                                if names else None)
            sources = []
            for (_, src), hold, r in zip(feeds[k], held[k], real[k]):
                if r and src in index:
                    sources.append((index[src], None, hold))
                elif isinstance(src, tuple):
                    sources.append((None, lambda t, s=src: self.current[s[0]][s[1]], False))
                else:
                    sources.append((None, signals.get(src), False))
            self.sources.append(sources)
            self.real.append(real[k])
            self.gives.append([(p, index[(k, name)]) for p, name in enumerate(produced[k]) if (k, name) in index])
        self.keepers = [inst.s.state_keeper() for inst in insts]
        self.now = None
        self.inverse, self.anchor, self.dt, self.taken, self.evaluations = None, None, None, None, 0
        self.scale = [1e-6] * len(self.keys)  # per unknown, the largest magnitude it has had (floored)

    def _step(self, k, t, dt, start, end, restore=True):
        """Component k stepped (from its saved state where ``restore``) with its connected inputs ramped from the
        unknowns' values ``start`` to ``end`` (lists by unknown); its outputs in the order it gives them."""
        if restore:
            self.keepers[k][1]()
        setters = self.setters[k]
        if setters is not None:
            values, slopes = [], []
            for (i, _, hold), own, real in zip(self.sources[k], self.now[k], self.real[k]):
                if hold:  # the force the source's step ends with, all through the step
                    values.append(end[i])
                    slopes.append(0.0)
                elif i is not None:  # a motion, from where it is to where it ends
                    values.append(start[i])
                    slopes.append((end[i] - start[i]) / dt)
                else:
                    values.append(own[0])
                    if real:
                        slopes.append(own[1])
            setters[0](values)
            if setters[1] is not None:
                setters[1](slopes)
        try:
            self.insts[k].s.do_step(t, dt)
        except fmucommon.FMIError as e:
            raise FMUError("component %s: step at t = %.6g s failed: %s" % (self.comps[k].name, t, e), e.messages, t) from None
        return self.getters[k]() if self.getters[k] else []

    def _jacobian(self, t, dt, y0, base):
        """(I - J)^-1, J the step's map from the unknowns' end values to the outputs at ``y0`` (finite differences:
        each column steps again, from the saved state, only the components its value feeds)."""
        n = len(y0)
        a = [[float(i == j) for j in range(n)] for i in range(n)]  # I - J, column by column
        for j in range(n):
            delta = 1e-6 * max(1.0, abs(y0[j]))
            probe = list(y0)
            probe[j] += delta
            for k in self.consumers[j]:
                out = self._step(k, t, dt, y0, probe)
                for p, i in self.gives[k]:
                    a[i][j] -= (out[p] - base[i]) / delta
        self.inverse = _inverse(a)
        self.anchor, self.dt, self.taken = list(y0), dt, t
        self.evaluations += 1

    def step(self, t, dt):
        n = len(self.keys)
        # The system's inputs over this step, per component (each _step sets them again).
        self.now = [[None if i is not None else (sig(t) if sig else 0.0, _slope(sig, t, dt) if isinstance(sig, Table) else 0.0)
                     for i, sig, _ in src] for src in self.sources]
        for save, _ in self.keepers:
            save()
        y0 = [self.current[k][name] for k, name in self.keys]
        # The explicit step first (the unknowns held): its outputs are the step's map at the start.
        base = [0.0] * n
        for k in range(len(self.insts)):
            out = self._step(k, t, dt, y0, y0, restore=False)
            for p, i in self.gives[k]:
                base[i] = out[p]
        self.scale = list(map(max, self.scale, map(abs, y0)))
        if self.anchor is None or dt != self.dt or t - self.taken >= _JACOBIAN_AGE - 1e-9 * dt or \
                sum(d * d for d in map(operator.truediv, map(operator.sub, y0, self.anchor), self.scale)) > _JACOBIAN_MOVE ** 2 * n:
            self._jacobian(t, dt, y0, base)
        # One Newton step on Y = Φ(Y) from the values held: Y - Y0 = (I − J)^-1 (Φ(Y0) − Y0).
        residual = [b - y for b, y in zip(base, y0)]
        end = [y + sum(map(operator.mul, row, residual)) for y, row in zip(y0, self.inverse)]
        for k in range(len(self.insts)):
            self.current[k] = dict(zip(self.produced[k], self._step(k, t, dt, y0, end)))


def _inverse(a):
    """The inverse of the small dense matrix a (Gauss-Jordan elimination with partial pivoting)."""
    n = len(a)
    m = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if m[p][c] == 0:
            raise SystemError("the implicit coupling's interface matrix is singular")
        m[c], m[p] = m[p], m[c]
        pivot = m[c]
        inv = 1.0 / pivot[c]
        for cc in range(c, 2 * n):
            pivot[cc] *= inv
        for r in range(n):
            f = m[r][c]
            if r != c and f:
                row = m[r]
                for cc in range(c, 2 * n):
                    row[cc] -= f * pivot[cc]
    return [row[n:] for row in m]


_START_ROUNDS = 20  # starting again at most this often before refusing a system whose start values do not settle


def _agree(a, b):
    """Whether a connected input's start value a is its source's value b (to 1e-9 of its size)."""
    return a is not None and abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _slope(table, t, dt):
    """A sampled signal's mean slope over the step from t (the samples' ramp it is on)."""
    return (table(t + dt) - table(t)) / dt


def pack(folder, fmus, out):
    """Write the SSP package ``out`` from a system's ``folder`` (its SystemStructure.ssd and resources/) and the
    FMUs its components name, found by file name in the folder ``fmus`` (an FMU is a build output, kept out of the
    system's sources). Returns ``out``."""
    ssd = os.path.join(folder, "SystemStructure.ssd")
    try:
        root = ET.parse(ssd).getroot()
    except (OSError, ET.ParseError) as e:
        raise SystemError("%s: %s" % (ssd, e)) from None
    sources = [el.get("source") or "" for el in root.iter("{%s}Component" % SSD)]
    # A source is the FMU's place in the package: a relative path that stays inside it (a "../" one would be
    # written outside wherever the package is unpacked).
    bad = [s for s in sources if not s or s.startswith("/") or "\\" in s or ".." in s.split("/")]
    if bad:
        raise SystemError("%s: component source %s: must be a path inside the package, such as resources/NAME.fmu"
                          % (ssd, ", ".join(repr(b) for b in bad)))
    missing = [s for s in sources if not os.path.isfile(os.path.join(fmus, os.path.basename(s)))]
    if missing:
        raise SystemError("%s: no %s in %s (export them first)" % (folder, ", ".join(os.path.basename(m) for m in missing), fmus))
    # The system's folder is packed whole: a package written into it would pack itself (and the next one the last,
    # growing without end).
    top = os.path.realpath(folder)
    try:
        inside = os.path.commonpath([top, os.path.realpath(os.path.abspath(out))]) == top
    except ValueError:  # on Windows, paths on different drives share no path
        inside = False
    if inside:
        raise SystemError("%s: the package lies inside the system's folder %s, which is packed whole: write it "
                          "elsewhere" % (out, folder))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".tmp"
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
            for base, _, files in os.walk(folder):
                for f in sorted(files):
                    path = os.path.join(base, f)
                    z.write(path, os.path.relpath(path, folder).replace(os.sep, "/"))
            for s in sorted(set(sources)):  # two components may run the same FMU
                z.write(os.path.join(fmus, os.path.basename(s)), s)
        os.replace(tmp, out)
    except BaseException as e:  # an interrupt too: no half-written package left behind
        try:
            os.remove(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise SystemError("%s: %s" % (out, e.strerror or e)) from None
        raise
    return out


def plot_result(result, path, title):
    """Write a plot of a system run's columns, grouped by unit (one panel each), to ``path`` (PNG)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("the plot needs Matplotlib (Debian: python3-matplotlib)")
    groups = {}
    for name in result:
        if name != "time":
            groups.setdefault(result.units.get(name, "1"), []).append(name)
    fig, axes = plt.subplots(len(groups), 1, figsize=(10, 2.6 * len(groups) + 0.6), sharex=True, squeeze=False)
    for ax, (unit, names) in zip(axes[:, 0], sorted(groups.items())):
        for n in names:
            ax.plot(result["time"], result[n], label=n, linewidth=1)
        ax.set_ylabel(unit)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    axes[-1, 0].set_xlabel("time (s)")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _signal_arg(text):
    """An input given on the command line: NAME=VALUE, or NAME=t0:v0,t1:v1,... (linear between the samples)."""
    name, sep, spec = text.partition("=")
    if not sep or not name:
        raise ValueError("input %r: want NAME=VALUE or NAME=t0:v0,t1:v1,..." % text)
    def number(s, what):
        try:
            x = float(s)
        except ValueError:
            x = math.nan
        if not math.isfinite(x):
            raise ValueError("input %r: %s %r is not a finite number" % (text, what, s))
        return x
    if ":" not in spec:
        return name, number(spec, "the value")
    times, values = [], []
    for pair in spec.split(","):
        t, sep, v = pair.partition(":")
        if not sep:
            raise ValueError("input %r: sample %r is not t:v" % (text, pair))
        times.append(number(t, "the time"))
        values.append(number(v, "the value"))
    return name, (times, values)


def main(argv):
    """``python3 -m cablefmu system pack|run ...``; returns the exit status."""
    import argparse
    import sys
    p = argparse.ArgumentParser(prog="python3 -m cablefmu system", description="Pack and run SSP systems of FMUs.")
    verbs = p.add_subparsers(dest="verb", required=True)
    pk = verbs.add_parser("pack", help="write an SSP package from a system folder and the FMUs it names")
    pk.add_argument("folder", help="the system's folder: SystemStructure.ssd and resources/")
    pk.add_argument("--fmus", default="out", help="the folder holding the FMUs the components name (default: out)")
    pk.add_argument("-o", "--out", required=True, help="the package to write (.ssp)")
    r = verbs.add_parser("run", help="run an SSP package and write its outputs as CSV (and a plot)")
    r.add_argument("ssp", help="the SSP package")
    r.add_argument("--start", type=float, help="start time (s; default the package's, or 0)")
    r.add_argument("--stop", type=float, help="stop time (s; default the package's)")
    r.add_argument("--step", type=float, help="communication step (s; default the components' smallest)")
    r.add_argument("--order", choices=("gauss-seidel", "jacobi"), default="gauss-seidel",
                   help="the explicit coupling's order (default gauss-seidel)")
    r.add_argument("--coupling", choices=("explicit", "implicit"), default="explicit",
                   help="explicit (in --order), or linearly implicit for a stiff interface (default explicit)")
    r.add_argument("--input", action="append", default=[], metavar="NAME=VALUE|NAME=t:v,t:v",
                   help="a system input: a constant, or samples linear between them (repeatable)")
    r.add_argument("--parameters", action="append", default=[], metavar="SSV",
                   help="a parameter set in the package (a load case, component.variable names; repeatable)")
    r.add_argument("--csv", help="the CSV to write (default: NAME.csv beside the package)")
    r.add_argument("--plot", help="also write a plot (PNG)")
    args = p.parse_args(argv)
    try:
        if args.verb == "pack":
            print("wrote %s" % pack(args.folder, args.fmus, args.out))
            return 0
        s = load_ssp(args.ssp, parameter_sets=args.parameters)
        inputs = dict(_signal_arg(x) for x in args.input)
        result = run(s, stop_time=args.stop, step=args.step, order=args.order, inputs=inputs, coupling=args.coupling,
                     start_time=args.start)
        csv_path = args.csv or os.path.splitext(args.ssp)[0] + ".csv"
        result.write_csv(csv_path)
        how = "implicit coupling" if args.coupling == "implicit" else "%s order" % args.order
        print("wrote %s (%d communication points, %s)" % (csv_path, len(result["time"]), how))
        for name in result:
            if name != "time":
                col = result[name]
                print("  %-28s %12.6g .. %-12.6g %s" % (name, min(col), max(col), result.units.get(name, "")))
        if args.plot:
            print("wrote %s" % plot_result(result, args.plot, "%s (%s, step %g s)" % (s.name, how, result["time"][1] - result["time"][0])))
    except (SystemError, FMUError, fmucommon.FMIError, ValueError, RuntimeError, OSError) as e:
        print("system: %s" % " ".join(str(e).split()), file=sys.stderr)
        return 2
    return 0
