"""Minimal ctypes binding for FMI 3.0 Co-Simulation FMUs (standard library only).

Typical use::

    import fmi3
    folder = fmi3.unzip("out/Hoist3.fmu", "out/Hoist3_fmu")
    slave = fmi3.FMU3Slave(folder, instance_name="hoist")
    slave.instantiate_co_simulation()
    slave.enter_initialization_mode(start_time=0.0)
    slave.exit_initialization_mode()          # now in Step Mode
    slave.set_float64(["hoist.x", "hoist.vx"], [0.0, 0.0])
    event, terminate, early, t = slave.do_step(0.0, 0.01)
    tension, = slave.get_float64(["cable.tension"])
    nodes = slave.get_array("cable.node")      # nested lists, shape from <Dimension>
    slave.terminate()
    slave.free()

Every wrapped call checks the returned fmi3Status.  fmi3OK and fmi3Warning
return normally (warnings stay in ``slave.messages``); fmi3Discard,
fmi3Error and fmi3Fatal raise :class:`FMIError`, which carries the function
name, the status and the messages the FMU logged during that call.

Arrays
------
FMI 3.0 variables may be arrays (``<Dimension start="..."/>`` or
``<Dimension valueReference="..."/>`` children of the variable element).  One
value reference then stands for all elements, serialized in row-major order:
``get_float64`` and ``set_float64`` take and return ``n`` values for a
variable of ``n`` elements, and pass ``nValues`` (the total number of values)
to the FMU.  A dimension given by a structural parameter is resolved with the
parameter's start value from the model description.

Loading the shared library
--------------------------
An FMU binary built from Go (cgo, ``-buildmode=c-shared``) contains a complete
Go runtime.  Every time a copy of the binary is loaded from a *new* path, a
further Go runtime starts inside the calling process (about 5 threads and
5 MB), and it is never unloaded: such libraries are linked so that
``dlclose`` does nothing.  Therefore unpack an FMU once, reuse the folder
(:func:`unzip` does so when the archive has not changed) and create all
instances from the same folder: this module loads each binary path only once
per process and shares the handle between instances.

When a binary is loaded, all 75 functions of the FMI 3.0 headers
(``fmi3Functions.h``) are looked up; those missing are listed in the
library's ``fmi3_missing`` attribute and :class:`FMU3Slave` refuses such a
binary, naming them.

Logger callback
---------------
Unlike FMI 2.0, the FMI 3.0 log callback is not variadic::

    void logMessage(fmi3InstanceEnvironment env, fmi3Status status,
                    fmi3String category, fmi3String message);

so it is declared exactly as the standard defines it and the message is
plain text.  The ``instanceEnvironment`` passed to the FMU is an integer
identifying the :class:`FMU3Slave`; the callback object is kept alive on the
instance for as long as the FMU may call it.
"""

import collections
import ctypes
import hashlib
import math
import os
import shutil
import tempfile
import threading
import xml.etree.ElementTree as ET
import zipfile

__all__ = [
    "OK", "WARNING", "DISCARD", "ERROR", "FATAL", "STATUS_NAMES",
    "FMIError", "Variable", "ModelDescription", "DoStepResult",
    "read_model_description", "unzip", "binary_path", "resource_path", "platform_tuple",
    "load_library", "release_library", "missing_functions", "FMU3Slave",
    "FUNCTION_NAMES", "MODEL_EXCHANGE_FUNCTIONS", "SCHEDULED_EXECUTION_FUNCTIONS",
    "CLOCK_FUNCTIONS", "all_finite", "flatten", "reshape",
]

# --------------------------------------------------------------------------
# FMI 3.0 basic types (fmi3PlatformTypes.h)
# --------------------------------------------------------------------------

fmi3Instance = ctypes.c_void_p
fmi3InstanceEnvironment = ctypes.c_void_p
fmi3FMUState = ctypes.c_void_p
fmi3ValueReference = ctypes.c_uint32
fmi3Float32 = ctypes.c_float
fmi3Float64 = ctypes.c_double
fmi3Int8 = ctypes.c_int8
fmi3UInt8 = ctypes.c_uint8
fmi3Int16 = ctypes.c_int16
fmi3UInt16 = ctypes.c_uint16
fmi3Int32 = ctypes.c_int32
fmi3UInt32 = ctypes.c_uint32
fmi3Int64 = ctypes.c_int64
fmi3UInt64 = ctypes.c_uint64
fmi3Boolean = ctypes.c_bool  # C99 bool
fmi3Char = ctypes.c_char
fmi3String = ctypes.c_char_p
fmi3Byte = ctypes.c_uint8
fmi3Binary = ctypes.POINTER(fmi3Byte)
fmi3Clock = ctypes.c_bool
fmi3Status = ctypes.c_int  # enum
fmi3DependencyKind = ctypes.c_int  # enum
fmi3IntervalQualifier = ctypes.c_int  # enum

fmi3True = True
fmi3False = False

# fmi3Status (fmi3FunctionTypes.h); FMI 3.0 has no "pending" status.
OK, WARNING, DISCARD, ERROR, FATAL = range(5)
STATUS_NAMES = {
    OK: "fmi3OK",
    WARNING: "fmi3Warning",
    DISCARD: "fmi3Discard",
    ERROR: "fmi3Error",
    FATAL: "fmi3Fatal",
}

# fmi3DependencyKind
INDEPENDENT, CONSTANT, FIXED, TUNABLE, DISCRETE, DEPENDENT = range(6)

# fmi3IntervalQualifier
INTERVAL_NOT_YET_KNOWN, INTERVAL_UNCHANGED, INTERVAL_CHANGED = range(3)

# Callback function types (fmi3FunctionTypes.h).
fmi3LogMessageCallback = ctypes.CFUNCTYPE(
    None,
    fmi3InstanceEnvironment,  # instanceEnvironment
    fmi3Status,  # status
    fmi3String,  # category
    fmi3String,  # message (plain text, not a format)
)
fmi3ClockUpdateCallback = ctypes.CFUNCTYPE(None, fmi3InstanceEnvironment)
fmi3IntermediateUpdateCallback = ctypes.CFUNCTYPE(
    None,
    fmi3InstanceEnvironment,  # instanceEnvironment
    fmi3Float64,  # intermediateUpdateTime
    fmi3Boolean,  # intermediateVariableSetRequested
    fmi3Boolean,  # intermediateVariableGetAllowed
    fmi3Boolean,  # intermediateStepFinished
    fmi3Boolean,  # canReturnEarly
    ctypes.POINTER(fmi3Boolean),  # earlyReturnRequested
    ctypes.POINTER(fmi3Float64),  # earlyReturnTime
)
fmi3LockPreemptionCallback = ctypes.CFUNCTYPE(None)
fmi3UnlockPreemptionCallback = ctypes.CFUNCTYPE(None)


def _nullable(fntype):
    """Argument type accepting a callback of ``fntype`` or None (passed as NULL)."""

    class Nullable:
        @classmethod
        def from_param(cls, obj):
            if obj is None:
                return ctypes.c_void_p(None)
            return fntype.from_param(obj)

    Nullable.__name__ = "Nullable" + fntype.__name__
    return Nullable


_P = ctypes.POINTER
_i = fmi3Instance
_vr = _P(fmi3ValueReference)
_st = ctypes.c_size_t
_B = fmi3Boolean
_F = fmi3Float64


def _getset(value_type):
    return (fmi3Status, [_i, _vr, _st, _P(value_type), _st])


# name -> (restype, argtypes) for all functions of fmi3Functions.h, in the
# order of the header.
_SIGNATURES = collections.OrderedDict([
    # Inquire version numbers and set debug logging
    ("fmi3GetVersion", (ctypes.c_char_p, [])),
    ("fmi3SetDebugLogging", (fmi3Status, [_i, _B, _st, _P(fmi3String)])),
    # Creation and destruction of FMU instances
    ("fmi3InstantiateModelExchange", (fmi3Instance, [
        fmi3String, fmi3String, fmi3String, _B, _B, fmi3InstanceEnvironment, _nullable(fmi3LogMessageCallback)])),
    ("fmi3InstantiateCoSimulation", (fmi3Instance, [
        fmi3String, fmi3String, fmi3String, _B, _B, _B, _B, _vr, _st,
        fmi3InstanceEnvironment, _nullable(fmi3LogMessageCallback),
        _nullable(fmi3IntermediateUpdateCallback)])),
    ("fmi3InstantiateScheduledExecution", (fmi3Instance, [
        fmi3String, fmi3String, fmi3String, _B, _B, fmi3InstanceEnvironment, _nullable(fmi3LogMessageCallback),
        _nullable(fmi3ClockUpdateCallback), _nullable(fmi3LockPreemptionCallback),
        _nullable(fmi3UnlockPreemptionCallback)])),
    ("fmi3FreeInstance", (None, [_i])),
    # Enter and exit initialization mode, enter event mode, terminate and reset
    ("fmi3EnterInitializationMode", (fmi3Status, [_i, _B, _F, _F, _B, _F])),
    ("fmi3ExitInitializationMode", (fmi3Status, [_i])),
    ("fmi3EnterEventMode", (fmi3Status, [_i])),
    ("fmi3Terminate", (fmi3Status, [_i])),
    ("fmi3Reset", (fmi3Status, [_i])),
    # Getting and setting variable values
    ("fmi3GetFloat32", _getset(fmi3Float32)),
    ("fmi3GetFloat64", _getset(fmi3Float64)),
    ("fmi3GetInt8", _getset(fmi3Int8)),
    ("fmi3GetUInt8", _getset(fmi3UInt8)),
    ("fmi3GetInt16", _getset(fmi3Int16)),
    ("fmi3GetUInt16", _getset(fmi3UInt16)),
    ("fmi3GetInt32", _getset(fmi3Int32)),
    ("fmi3GetUInt32", _getset(fmi3UInt32)),
    ("fmi3GetInt64", _getset(fmi3Int64)),
    ("fmi3GetUInt64", _getset(fmi3UInt64)),
    ("fmi3GetBoolean", _getset(fmi3Boolean)),
    ("fmi3GetString", _getset(fmi3String)),
    ("fmi3GetBinary", (fmi3Status, [_i, _vr, _st, _P(_st), _P(fmi3Binary), _st])),
    ("fmi3GetClock", (fmi3Status, [_i, _vr, _st, _P(fmi3Clock)])),
    ("fmi3SetFloat32", _getset(fmi3Float32)),
    ("fmi3SetFloat64", _getset(fmi3Float64)),
    ("fmi3SetInt8", _getset(fmi3Int8)),
    ("fmi3SetUInt8", _getset(fmi3UInt8)),
    ("fmi3SetInt16", _getset(fmi3Int16)),
    ("fmi3SetUInt16", _getset(fmi3UInt16)),
    ("fmi3SetInt32", _getset(fmi3Int32)),
    ("fmi3SetUInt32", _getset(fmi3UInt32)),
    ("fmi3SetInt64", _getset(fmi3Int64)),
    ("fmi3SetUInt64", _getset(fmi3UInt64)),
    ("fmi3SetBoolean", _getset(fmi3Boolean)),
    ("fmi3SetString", _getset(fmi3String)),
    ("fmi3SetBinary", (fmi3Status, [_i, _vr, _st, _P(_st), _P(fmi3Binary), _st])),
    ("fmi3SetClock", (fmi3Status, [_i, _vr, _st, _P(fmi3Clock)])),
    # Getting variable dependency information
    ("fmi3GetNumberOfVariableDependencies", (fmi3Status, [_i, fmi3ValueReference, _P(_st)])),
    ("fmi3GetVariableDependencies", (fmi3Status, [
        _i, fmi3ValueReference, _P(_st), _vr, _P(_st), _P(fmi3DependencyKind), _st])),
    # Getting and setting the internal FMU state
    ("fmi3GetFMUState", (fmi3Status, [_i, _P(fmi3FMUState)])),
    ("fmi3SetFMUState", (fmi3Status, [_i, fmi3FMUState])),
    ("fmi3FreeFMUState", (fmi3Status, [_i, _P(fmi3FMUState)])),
    ("fmi3SerializedFMUStateSize", (fmi3Status, [_i, fmi3FMUState, _P(_st)])),
    ("fmi3SerializeFMUState", (fmi3Status, [_i, fmi3FMUState, _P(fmi3Byte), _st])),
    ("fmi3DeserializeFMUState", (fmi3Status, [_i, _P(fmi3Byte), _st, _P(fmi3FMUState)])),
    # Getting partial derivatives
    ("fmi3GetDirectionalDerivative", (fmi3Status, [_i, _vr, _st, _vr, _st, _P(_F), _st, _P(_F), _st])),
    ("fmi3GetAdjointDerivative", (fmi3Status, [_i, _vr, _st, _vr, _st, _P(_F), _st, _P(_F), _st])),
    # Entering and exiting the Configuration or Reconfiguration Mode
    ("fmi3EnterConfigurationMode", (fmi3Status, [_i])),
    ("fmi3ExitConfigurationMode", (fmi3Status, [_i])),
    # Clock related functions
    ("fmi3GetIntervalDecimal", (fmi3Status, [_i, _vr, _st, _P(_F), _P(fmi3IntervalQualifier)])),
    ("fmi3GetIntervalFraction", (fmi3Status, [
        _i, _vr, _st, _P(fmi3UInt64), _P(fmi3UInt64), _P(fmi3IntervalQualifier)])),
    ("fmi3GetShiftDecimal", (fmi3Status, [_i, _vr, _st, _P(_F)])),
    ("fmi3GetShiftFraction", (fmi3Status, [_i, _vr, _st, _P(fmi3UInt64), _P(fmi3UInt64)])),
    ("fmi3SetIntervalDecimal", (fmi3Status, [_i, _vr, _st, _P(_F)])),
    ("fmi3SetIntervalFraction", (fmi3Status, [_i, _vr, _st, _P(fmi3UInt64), _P(fmi3UInt64)])),
    ("fmi3SetShiftDecimal", (fmi3Status, [_i, _vr, _st, _P(_F)])),
    ("fmi3SetShiftFraction", (fmi3Status, [_i, _vr, _st, _P(fmi3UInt64), _P(fmi3UInt64)])),
    ("fmi3EvaluateDiscreteStates", (fmi3Status, [_i])),
    ("fmi3UpdateDiscreteStates", (fmi3Status, [_i, _P(_B), _P(_B), _P(_B), _P(_B), _P(_B), _P(_F)])),
    # Model Exchange
    ("fmi3EnterContinuousTimeMode", (fmi3Status, [_i])),
    ("fmi3CompletedIntegratorStep", (fmi3Status, [_i, _B, _P(_B), _P(_B)])),
    ("fmi3SetTime", (fmi3Status, [_i, _F])),
    ("fmi3SetContinuousStates", (fmi3Status, [_i, _P(_F), _st])),
    ("fmi3GetContinuousStateDerivatives", (fmi3Status, [_i, _P(_F), _st])),
    ("fmi3GetEventIndicators", (fmi3Status, [_i, _P(_F), _st])),
    ("fmi3GetContinuousStates", (fmi3Status, [_i, _P(_F), _st])),
    ("fmi3GetNominalsOfContinuousStates", (fmi3Status, [_i, _P(_F), _st])),
    ("fmi3GetNumberOfEventIndicators", (fmi3Status, [_i, _P(_st)])),
    ("fmi3GetNumberOfContinuousStates", (fmi3Status, [_i, _P(_st)])),
    # Co-Simulation
    ("fmi3EnterStepMode", (fmi3Status, [_i])),
    ("fmi3GetOutputDerivatives", (fmi3Status, [_i, _vr, _st, _P(fmi3Int32), _P(_F), _st])),
    ("fmi3DoStep", (fmi3Status, [_i, _F, _F, _B, _P(_B), _P(_B), _P(_B), _P(_F)])),
    # Scheduled Execution
    ("fmi3ActivateModelPartition", (fmi3Status, [_i, fmi3ValueReference, _F])),
])

#: The names of the 75 functions an FMI 3.0 binary exports (fmi3Functions.h).
FUNCTION_NAMES = tuple(_SIGNATURES)

#: The functions that belong to FMI 3.0 Model Exchange only.
MODEL_EXCHANGE_FUNCTIONS = (
    "fmi3InstantiateModelExchange", "fmi3EnterContinuousTimeMode", "fmi3CompletedIntegratorStep",
    "fmi3SetTime", "fmi3SetContinuousStates", "fmi3GetContinuousStateDerivatives",
    "fmi3GetEventIndicators", "fmi3GetContinuousStates", "fmi3GetNominalsOfContinuousStates",
    "fmi3GetNumberOfEventIndicators", "fmi3GetNumberOfContinuousStates",
)

#: The functions that belong to FMI 3.0 Scheduled Execution only.
SCHEDULED_EXECUTION_FUNCTIONS = ("fmi3InstantiateScheduledExecution", "fmi3ActivateModelPartition")

#: The functions on clocks (used with clocked variables only).
CLOCK_FUNCTIONS = (
    "fmi3GetClock", "fmi3SetClock", "fmi3GetIntervalDecimal", "fmi3GetIntervalFraction",
    "fmi3GetShiftDecimal", "fmi3GetShiftFraction", "fmi3SetIntervalDecimal",
    "fmi3SetIntervalFraction", "fmi3SetShiftDecimal", "fmi3SetShiftFraction",
)


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------

class FMIError(Exception):
    """A failed FMI call.

    Attributes: ``function`` (C function name), ``status`` (fmi3Status as int,
    or None when an fmi3Instantiate* function returned NULL or the call was
    not made) and ``messages`` (list of ``(status, category, text)`` tuples
    the FMU logged during the failed call).  The text shows the non-OK
    messages of the call.
    """

    def __init__(self, function, status, messages=(), detail=""):
        self.function = function
        self.status = status
        self.messages = list(messages)
        if status is None:
            head = "%s failed" % function
        else:
            head = "%s returned %s" % (function, STATUS_NAMES.get(status, str(status)))
        if detail:
            head += " (%s)" % detail
        shown = [m for m in self.messages if m[0] != OK] or self.messages
        if shown:
            logged = "; ".join("[%s] %s" % (cat, text) for _, cat, text in shown[-5:])
            head += ": " + logged
        else:
            head += " (nothing logged)"
        super().__init__(head)


# --------------------------------------------------------------------------
# modelDescription.xml
# --------------------------------------------------------------------------

#: Variable elements of FMI 3.0 (<ModelVariables> children).
VARIABLE_TYPES = ("Float32", "Float64", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32",
                  "Int64", "UInt64", "Boolean", "String", "Binary", "Enumeration", "Clock")


class Variable:
    """One variable of ``<ModelVariables>`` (a scalar or an array).

    ``dimensions`` lists the ``<Dimension>`` children as ``(start,
    value_reference)`` pairs (one of them None); ``shape`` is the resolved
    tuple of extents (``()`` for a scalar) and ``size`` the number of
    elements.  ``start`` is a number for a scalar with a start value and a
    flat list for an array.
    """

    __slots__ = ("name", "value_reference", "type", "causality", "variability", "initial",
                 "start", "unit", "description", "dimensions", "shape")

    def __init__(self, name, value_reference, type_, causality, variability, initial, start,
                 unit, description, dimensions=()):
        self.name = name
        self.value_reference = value_reference
        self.type = type_
        self.causality = causality
        self.variability = variability
        self.initial = initial
        self.start = start
        self.unit = unit
        self.description = description
        self.dimensions = list(dimensions)
        self.shape = ()

    @property
    def is_array(self):
        return bool(self.dimensions)

    @property
    def size(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __repr__(self):
        return "Variable(%r, vr=%d, %s%s, %s, %s, start=%r)" % (
            self.name, self.value_reference, self.type,
            "[%s]" % ",".join(str(d) for d in self.shape) if self.dimensions else "",
            self.causality, self.variability, self.start)


class ModelDescription:
    """The parts of an FMI 3.0 ``modelDescription.xml`` a Co-Simulation importer needs."""

    def __init__(self):
        self.fmi_version = None
        self.model_name = None
        self.instantiation_token = None
        self.description = None
        self.generation_tool = None
        self.model_identifier = None  # of the <CoSimulation> element
        self.has_model_exchange = False
        self.has_scheduled_execution = False
        self.can_handle_variable_step = False
        self.can_get_and_set_fmu_state = False
        self.can_serialize_fmu_state = False
        self.can_be_instantiated_only_once_per_process = False
        self.needs_execution_tool = False
        self.provides_directional_derivatives = False
        self.provides_adjoint_derivatives = False
        self.has_event_mode = False
        self.might_return_early = False
        self.provides_intermediate_update = False
        self.max_output_derivative_order = 0
        self.fixed_internal_step_size = None
        self.default_experiment = {}  # startTime, stopTime, tolerance, stepSize
        self.variables = collections.OrderedDict()  # name -> Variable
        self.by_vr = {}  # value reference -> Variable
        self.log_categories = []
        self.outputs = []  # value references in <ModelStructure><Output>
        self.initial_unknowns = []  # value references in <ModelStructure><InitialUnknown>

    def variable(self, ref):
        """The :class:`Variable` named ``ref`` or with value reference ``ref``."""
        try:
            return self.variables[ref] if isinstance(ref, str) else self.by_vr[int(ref)]
        except KeyError:
            raise KeyError("no variable %r in the model description of %s" % (ref, self.model_name)) from None

    def vr(self, name):
        """Value reference of the variable called ``name`` (KeyError if unknown)."""
        return self.variable(name).value_reference

    def vrs(self, names):
        return [self.vr(n) for n in names]

    def size(self, ref):
        """Number of elements of a variable (1 for a scalar or an unknown value reference)."""
        if isinstance(ref, str):
            return self.variable(ref).size
        var = self.by_vr.get(int(ref))
        return var.size if var is not None else 1

    def shape(self, ref):
        return self.variable(ref).shape

    def by_causality(self, causality):
        return [v for v in self.variables.values() if v.causality == causality]

    def independent(self):
        """The independent variable (``causality="independent"``), None if missing."""
        found = self.by_causality("independent")
        return found[0] if found else None


def _bool_attr(elem, name):
    return elem is not None and elem.get(name, "false").strip().lower() in ("true", "1")


def _parse_values(type_, text):
    if text is None:
        return None
    if type_ in ("Float32", "Float64"):
        return [float(s) for s in text.split()]
    if type_ in ("Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64", "Enumeration"):
        return [int(s) for s in text.split()]
    if type_ in ("Boolean", "Clock"):
        return [s.lower() in ("true", "1") for s in text.split()]
    return [text]


def read_model_description(path):
    """Parse an FMI 3.0 ``modelDescription.xml`` (give the file, an unpacked FMU folder or an .fmu)."""
    if os.path.isdir(path):
        path = os.path.join(path, "modelDescription.xml")
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            root = ET.fromstring(zf.read("modelDescription.xml"))
    else:
        root = ET.parse(path).getroot()
    if root.tag != "fmiModelDescription":
        raise ValueError("%s: root element is <%s>, expected <fmiModelDescription>" % (path, root.tag))
    md = ModelDescription()
    md.fmi_version = root.get("fmiVersion")
    if not (md.fmi_version or "").startswith("3."):
        raise ValueError("%s: fmiVersion=%r, this binding reads FMI 3.0" % (path, md.fmi_version))
    md.model_name = root.get("modelName")
    md.instantiation_token = root.get("instantiationToken")
    md.description = root.get("description")
    md.generation_tool = root.get("generationTool")
    md.has_model_exchange = root.find("ModelExchange") is not None
    md.has_scheduled_execution = root.find("ScheduledExecution") is not None
    cs = root.find("CoSimulation")
    if cs is None:
        raise ValueError("%s: the FMU does not support Co-Simulation" % path)
    md.model_identifier = cs.get("modelIdentifier")
    md.can_handle_variable_step = _bool_attr(cs, "canHandleVariableCommunicationStepSize")
    md.can_get_and_set_fmu_state = _bool_attr(cs, "canGetAndSetFMUState")
    md.can_serialize_fmu_state = _bool_attr(cs, "canSerializeFMUState")
    md.can_be_instantiated_only_once_per_process = _bool_attr(cs, "canBeInstantiatedOnlyOncePerProcess")
    md.needs_execution_tool = _bool_attr(cs, "needsExecutionTool")
    md.provides_directional_derivatives = _bool_attr(cs, "providesDirectionalDerivatives")
    md.provides_adjoint_derivatives = _bool_attr(cs, "providesAdjointDerivatives")
    md.has_event_mode = _bool_attr(cs, "hasEventMode")
    md.might_return_early = _bool_attr(cs, "mightReturnEarlyFromDoStep")
    md.provides_intermediate_update = _bool_attr(cs, "providesIntermediateUpdate")
    md.max_output_derivative_order = int(cs.get("maxOutputDerivativeOrder", "0"))
    if cs.get("fixedInternalStepSize") is not None:
        md.fixed_internal_step_size = float(cs.get("fixedInternalStepSize"))
    de = root.find("DefaultExperiment")
    if de is not None:
        for key in ("startTime", "stopTime", "tolerance", "stepSize"):
            if de.get(key) is not None:
                md.default_experiment[key] = float(de.get(key))
    lc = root.find("LogCategories")
    if lc is not None:
        md.log_categories = [c.get("name") for c in lc.findall("Category")]
    mv = root.find("ModelVariables")
    for elem in (list(mv) if mv is not None else []):
        if elem.tag not in VARIABLE_TYPES:
            continue
        dims = []
        for d in elem.findall("Dimension"):
            dims.append((int(d.get("start")) if d.get("start") is not None else None,
                         int(d.get("valueReference")) if d.get("valueReference") is not None else None))
        start = _parse_values(elem.tag, elem.get("start"))
        if elem.tag == "String" and start is None:
            starts = [s.get("value") for s in elem.findall("Start")]
            start = starts or None
        if start is not None and not dims:
            start = start[0] if len(start) == 1 else start
        var = Variable(
            name=elem.get("name"),
            value_reference=int(elem.get("valueReference")),
            type_=elem.tag,
            causality=elem.get("causality", "local"),
            variability=elem.get("variability",
                                 "continuous" if elem.tag in ("Float32", "Float64") else "discrete"),
            initial=elem.get("initial"),
            start=start,
            unit=elem.get("unit"),
            description=elem.get("description"),
            dimensions=dims,
        )
        md.variables[var.name] = var
        md.by_vr[var.value_reference] = var
    for var in md.variables.values():
        shape = []
        for start, ref in var.dimensions:
            if start is not None:
                shape.append(start)
                continue
            param = md.by_vr.get(ref)
            if param is None or param.start is None:
                raise ValueError("%s: dimension of %s refers to value reference %r without a start value"
                                 % (path, var.name, ref))
            shape.append(int(param.start))
        var.shape = tuple(shape)
    ms = root.find("ModelStructure")
    if ms is not None:
        md.outputs = [int(u.get("valueReference")) for u in ms.findall("Output")]
        md.initial_unknowns = [int(u.get("valueReference")) for u in ms.findall("InitialUnknown")]
    return md


# --------------------------------------------------------------------------
# Unpacking
# --------------------------------------------------------------------------

_STAMP = ".fmu-sha256"


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def unzip(fmu_path, dest):
    """Unpack ``fmu_path`` into the folder ``dest`` and return its absolute path.

    The folder is reused: when it already holds this very archive (same
    SHA-256, recorded in ``dest/.fmu-sha256``) nothing is written.  Otherwise
    every file is written to a temporary name and renamed into place, so a
    binary still mapped by a running process is never overwritten in place.
    Member names that would escape ``dest`` are rejected.
    """
    dest = os.path.abspath(dest)
    digest = _sha256(fmu_path)
    stamp = os.path.join(dest, _STAMP)
    try:
        with open(stamp) as f:
            if f.read().strip() == digest and os.path.isfile(os.path.join(dest, "modelDescription.xml")):
                return dest
    except OSError:
        pass
    os.makedirs(dest, exist_ok=True)
    with zipfile.ZipFile(fmu_path) as zf:
        for info in zf.infolist():
            target = os.path.abspath(os.path.join(dest, info.filename))
            if target != dest and not target.startswith(dest + os.sep):
                raise ValueError("%s: member %r lies outside the destination" % (fmu_path, info.filename))
            if info.is_dir():
                os.makedirs(target, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".unzip-", dir=os.path.dirname(target))
            try:
                with os.fdopen(fd, "wb") as out, zf.open(info) as src:
                    shutil.copyfileobj(src, out)
                mode = (info.external_attr >> 16) & 0o777
                os.chmod(tmp, mode or 0o644)
                os.replace(tmp, target)
            except BaseException:
                if os.path.exists(tmp):
                    os.unlink(tmp)
                raise
    with open(stamp, "w") as f:
        f.write(digest + "\n")
    return dest


def platform_tuple():
    """The FMI 3.0 platform tuple of this machine's binaries folder (``x86_64-linux`` here)."""
    import platform
    machine = platform.machine().lower()
    arch = {"amd64": "x86_64", "x86_64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64",
            "i386": "x86", "i686": "x86"}.get(machine, machine)
    system = {"darwin": "darwin", "windows": "windows"}.get(platform.system().lower(), "linux")
    return "%s-%s" % (arch, system)


def binary_path(unzipped_dir, model_identifier, platform=None):
    """Path of the binary inside an unpacked FMI 3.0 FMU (``binaries/x86_64-linux/ID.so`` on Linux x86-64)."""
    platform = platform or platform_tuple()
    ext = {"darwin": ".dylib", "windows": ".dll"}.get(platform.split("-")[-1], ".so")
    return os.path.join(os.path.abspath(unzipped_dir), "binaries", platform, model_identifier + ext)


def resource_path(unzipped_dir):
    """Absolute path of the resources folder with a trailing separator (FMI 3.0 ``resourcePath``)."""
    return os.path.join(os.path.abspath(unzipped_dir), "resources") + os.sep


_default_resource_path = resource_path


# --------------------------------------------------------------------------
# Loading the binary
# --------------------------------------------------------------------------

_libs = {}
_libs_lock = threading.Lock()


def _declare(lib):
    missing = []
    for name, (restype, argtypes) in _SIGNATURES.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            missing.append(name)
            continue
        fn.restype = restype
        fn.argtypes = argtypes
    lib.fmi3_missing = missing
    return lib


def load_library(path):
    """Load an FMU binary once per process and declare all fmi3* signatures.

    Returns the shared :class:`ctypes.CDLL`; its attribute ``fmi3_missing``
    lists the FMI 3.0 functions the binary does not export.  See the module
    docstring for why each path should be loaded only once.
    """
    key = os.path.realpath(path)
    with _libs_lock:
        lib = _libs.get(key)
        if lib is None:
            lib = _declare(ctypes.CDLL(key, mode=ctypes.RTLD_LOCAL))
            _libs[key] = lib
        return lib


def release_library(path):
    """Forget the cached handle of ``path`` and ``dlclose`` it once.

    For Go binaries ``dlclose`` is a no-op; the next :func:`load_library`
    of the same path gets the same, still initialised library back.
    """
    import _ctypes

    key = os.path.realpath(path)
    with _libs_lock:
        lib = _libs.pop(key, None)
    if lib is not None:
        _ctypes.dlclose(lib._handle)


def missing_functions(path):
    """The FMI 3.0 functions (of the standard's 75) the binary at ``path`` does not export."""
    return list(load_library(path).fmi3_missing)


def _decode(b):
    if b is None:
        return ""
    return b.decode("utf-8", "replace")


# --------------------------------------------------------------------------
# Value helpers
# --------------------------------------------------------------------------

def flatten(values):
    """Flatten nested lists/tuples of numbers into a flat list (row-major)."""
    if isinstance(values, (int, float)):
        return [values]
    out = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.extend(flatten(v))
        else:
            out.append(v)
    return out


def reshape(flat, shape):
    """Nested lists of ``shape`` from a flat row-major list (``()`` gives the scalar)."""
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return list(flat[:shape[0]])
    step = len(flat) // shape[0]
    return [reshape(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def all_finite(values):
    """True when no value (of a possibly nested list) is NaN or infinite."""
    return all(math.isfinite(v) for v in flatten(values))


#: What :meth:`FMU3Slave.do_step` returns (the output arguments of fmi3DoStep).
DoStepResult = collections.namedtuple(
    "DoStepResult", ["event_handling_needed", "terminate_simulation", "early_return", "last_successful_time"])


# --------------------------------------------------------------------------
# The instance
# --------------------------------------------------------------------------

_env_counter = [0]
_env_lock = threading.Lock()


class FMU3Slave:
    """One FMI 3.0 Co-Simulation instance of an unpacked FMU.

    ``unzipped_dir`` is a folder produced by :func:`unzip`.  Variables can be
    given by name or by value reference wherever a list of references is
    expected.  Messages logged by the FMU for this instance are appended to
    ``self.messages`` as ``(status, category, text)``; set ``echo=True`` to
    also print them.
    """

    def __init__(self, unzipped_dir, instance_name="instance", echo=False, model_description=None):
        self.unzipped_dir = os.path.abspath(unzipped_dir)
        self.md = model_description or read_model_description(self.unzipped_dir)
        self.instance_name = instance_name
        self.echo = echo
        self.messages = []
        self.instance = None
        self.library_path = binary_path(self.unzipped_dir, self.md.model_identifier)
        if not os.path.isfile(self.library_path):
            raise FMIError("load", None, detail="no binary %s in the FMU" % self.library_path)
        self.lib = load_library(self.library_path)
        if self.lib.fmi3_missing:
            raise FMIError("load", None, detail="%s does not export %d of the %d FMI 3.0 functions: %s" % (
                self.library_path, len(self.lib.fmi3_missing), len(FUNCTION_NAMES),
                ", ".join(self.lib.fmi3_missing)))
        with _env_lock:
            _env_counter[0] += 1
            self._env_id = _env_counter[0]
        self._mark = 0
        # The ctypes callback objects must outlive every call into the FMU
        # (the FMU keeps the pointers until fmi3FreeInstance): they live on
        # the instance.
        self._log_callback = fmi3LogMessageCallback(self._log)
        self._intermediate_callback = None
        self._required = None

    # -- callbacks -----------------------------------------------------------

    def _log(self, env, status, category, message):
        entry = (int(status), _decode(category), _decode(message))
        self.messages.append(entry)
        if self.echo:
            print("[%s] %s %s: %s" % (STATUS_NAMES.get(entry[0], entry[0]), self.instance_name,
                                      entry[1], entry[2]), flush=True)

    # -- helpers -------------------------------------------------------------

    def _refs(self, refs):
        """(array of value references, their count, total number of values)."""
        if isinstance(refs, (str, int)):
            refs = [refs]
        out = []
        n_values = 0
        for r in refs:
            vr = self.md.vr(r) if isinstance(r, str) else int(r)
            out.append(vr)
            n_values += self.md.size(vr)
        return (fmi3ValueReference * len(out))(*out), len(out), n_values

    def _check(self, name, status, detail=""):
        """Raise FMIError unless status is fmi3OK or fmi3Warning.

        The exception carries the messages logged during this call (those
        after the mark set by _need_instance).
        """
        if status not in (OK, WARNING):
            raise FMIError(name, status, self.messages[self._mark:], detail)
        return status

    def _need_instance(self, name):
        """Fail unless instantiated; mark where this call's messages start."""
        if not self.instance:
            raise FMIError(name, None, (), "the instance is not instantiated")
        self._mark = len(self.messages)

    def call(self, name, *args):
        """Call ``name`` with the instance as first argument; return the raw status."""
        self._need_instance(name)
        return getattr(self.lib, name)(self.instance, *args)

    def vr(self, name):
        return self.md.vr(name)

    def clear_messages(self):
        self.messages = []

    # -- lifecycle -----------------------------------------------------------

    def instantiate_co_simulation(self, visible=False, logging_on=False, event_mode_used=False,
                                  early_return_allowed=False, required_intermediate_variables=(),
                                  intermediate_update=None, resource_path=None, instantiation_token=None):
        """fmi3InstantiateCoSimulation; raises FMIError (status None) when it returns NULL.

        ``intermediate_update``: a Python function with the arguments of
        fmi3IntermediateUpdateCallback, or None (NULL).  ``resource_path``
        defaults to the unpacked ``resources/`` folder (pass "" for NULL).
        """
        if self.instance:
            raise FMIError("fmi3InstantiateCoSimulation", None, (), "already instantiated")
        self._mark = len(self.messages)
        if resource_path is None:
            resource_path = _default_resource_path(self.unzipped_dir)
        token = self.md.instantiation_token if instantiation_token is None else instantiation_token
        required = [self.md.vr(r) if isinstance(r, str) else int(r) for r in required_intermediate_variables]
        self._required = (fmi3ValueReference * len(required))(*required) if required else None
        self._intermediate_callback = (fmi3IntermediateUpdateCallback(intermediate_update)
                                       if intermediate_update is not None else None)
        inst = self.lib.fmi3InstantiateCoSimulation(
            self.instance_name.encode(),
            token.encode() if token is not None else None,
            resource_path.encode() if resource_path else None,
            bool(visible), bool(logging_on), bool(event_mode_used), bool(early_return_allowed),
            self._required, len(required),
            self._env_id, self._log_callback, self._intermediate_callback)
        if not inst:
            raise FMIError("fmi3InstantiateCoSimulation", None, self.messages[self._mark:], "returned NULL")
        self.instance = inst
        return self

    instantiate = instantiate_co_simulation

    def set_debug_logging(self, on=True, categories=()):
        self._need_instance("fmi3SetDebugLogging")
        arr = (fmi3String * len(categories))(*[c.encode() for c in categories]) if categories else None
        return self._check("fmi3SetDebugLogging", self.lib.fmi3SetDebugLogging(
            self.instance, bool(on), len(categories), arr))

    def enter_initialization_mode(self, tolerance=None, start_time=0.0, stop_time=None):
        self._need_instance("fmi3EnterInitializationMode")
        return self._check("fmi3EnterInitializationMode", self.lib.fmi3EnterInitializationMode(
            self.instance,
            tolerance is not None, 0.0 if tolerance is None else tolerance,
            start_time,
            stop_time is not None, 0.0 if stop_time is None else stop_time))

    def exit_initialization_mode(self):
        self._need_instance("fmi3ExitInitializationMode")
        return self._check("fmi3ExitInitializationMode", self.lib.fmi3ExitInitializationMode(self.instance))

    def initialize(self, start_time=0.0, stop_time=None, parameters=None, inputs=None):
        """Set ``parameters`` (dict name -> value), enter initialization mode, set ``inputs``, exit."""
        if parameters:
            self.set_float64(list(parameters), [parameters[k] for k in parameters])
        self.enter_initialization_mode(start_time=start_time, stop_time=stop_time)
        if inputs:
            self.set_float64(list(inputs), [inputs[k] for k in inputs])
        self.exit_initialization_mode()
        return self

    def enter_step_mode(self):
        self._need_instance("fmi3EnterStepMode")
        return self._check("fmi3EnterStepMode", self.lib.fmi3EnterStepMode(self.instance))

    def enter_event_mode(self):
        self._need_instance("fmi3EnterEventMode")
        return self._check("fmi3EnterEventMode", self.lib.fmi3EnterEventMode(self.instance))

    def enter_configuration_mode(self):
        self._need_instance("fmi3EnterConfigurationMode")
        return self._check("fmi3EnterConfigurationMode", self.lib.fmi3EnterConfigurationMode(self.instance))

    def exit_configuration_mode(self):
        self._need_instance("fmi3ExitConfigurationMode")
        return self._check("fmi3ExitConfigurationMode", self.lib.fmi3ExitConfigurationMode(self.instance))

    def terminate(self):
        self._need_instance("fmi3Terminate")
        return self._check("fmi3Terminate", self.lib.fmi3Terminate(self.instance))

    def reset(self):
        self._need_instance("fmi3Reset")
        return self._check("fmi3Reset", self.lib.fmi3Reset(self.instance))

    def free(self):
        """fmi3FreeInstance (no-op when not instantiated)."""
        if self.instance:
            inst, self.instance = self.instance, None
            self.lib.fmi3FreeInstance(inst)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()
        return False

    # -- values --------------------------------------------------------------

    def set_float64(self, refs, values):
        """fmi3SetFloat64: ``values`` holds every element of every variable (nested lists are flattened)."""
        self._need_instance("fmi3SetFloat64")
        vrs, n, n_values = self._refs(refs)
        values = flatten(values)
        if len(values) != n_values:
            raise ValueError("set_float64: %d references with %d elements but %d values"
                             % (n, n_values, len(values)))
        vals = (fmi3Float64 * n_values)(*values)
        return self._check("fmi3SetFloat64", self.lib.fmi3SetFloat64(self.instance, vrs, n, vals, n_values))

    def get_float64(self, refs):
        """fmi3GetFloat64: a flat list of every element of every variable (row-major)."""
        self._need_instance("fmi3GetFloat64")
        vrs, n, n_values = self._refs(refs)
        vals = (fmi3Float64 * n_values)()
        self._check("fmi3GetFloat64", self.lib.fmi3GetFloat64(self.instance, vrs, n, vals, n_values))
        return list(vals)

    def get_array(self, ref):
        """One variable's values as nested lists of its shape (a number for a scalar)."""
        var = self.md.variable(ref)
        return reshape(self.get_float64([var.value_reference]), var.shape)

    def get_output_derivatives(self, refs, orders):
        self._need_instance("fmi3GetOutputDerivatives")
        vrs, n, n_values = self._refs(refs)
        if isinstance(orders, int):
            orders = [orders] * n
        ords = (fmi3Int32 * n)(*orders)
        vals = (fmi3Float64 * n_values)()
        self._check("fmi3GetOutputDerivatives",
                    self.lib.fmi3GetOutputDerivatives(self.instance, vrs, n, ords, vals, n_values))
        return list(vals)

    # -- FMU state -----------------------------------------------------------

    def get_fmu_state(self, state=None):
        """Saves the FMU state; returns a handle (pass one back to update it)."""
        self._need_instance("fmi3GetFMUState")
        handle = fmi3FMUState(state)
        self._check("fmi3GetFMUState", self.lib.fmi3GetFMUState(self.instance, ctypes.byref(handle)))
        return handle.value

    def set_fmu_state(self, state):
        self._need_instance("fmi3SetFMUState")
        return self._check("fmi3SetFMUState", self.lib.fmi3SetFMUState(self.instance, state))

    def free_fmu_state(self, state):
        """fmi3FreeFMUState; returns the handle the FMU left (NULL, i.e. None, after success)."""
        self._need_instance("fmi3FreeFMUState")
        handle = fmi3FMUState(state)
        self._check("fmi3FreeFMUState", self.lib.fmi3FreeFMUState(self.instance, ctypes.byref(handle)))
        return handle.value

    def serialized_fmu_state_size(self, state):
        self._need_instance("fmi3SerializedFMUStateSize")
        size = ctypes.c_size_t()
        self._check("fmi3SerializedFMUStateSize",
                    self.lib.fmi3SerializedFMUStateSize(self.instance, state, ctypes.byref(size)))
        return size.value

    def serialize_fmu_state(self, state):
        """Returns the state as bytes."""
        size = self.serialized_fmu_state_size(state)
        self._need_instance("fmi3SerializeFMUState")
        buf = (fmi3Byte * size)()
        self._check("fmi3SerializeFMUState", self.lib.fmi3SerializeFMUState(self.instance, state, buf, size))
        return bytes(buf)

    def deserialize_fmu_state(self, data):
        """Returns a state handle read from bytes."""
        self._need_instance("fmi3DeserializeFMUState")
        buf = (fmi3Byte * len(data)).from_buffer_copy(data)
        handle = fmi3FMUState()
        self._check("fmi3DeserializeFMUState",
                    self.lib.fmi3DeserializeFMUState(self.instance, buf, len(data), ctypes.byref(handle)))
        return handle.value

    # -- stepping ------------------------------------------------------------

    def do_step(self, current_time, step_size, no_set_fmu_state_prior=True):
        """fmi3DoStep; returns :data:`DoStepResult` (event_handling_needed,
        terminate_simulation, early_return, last_successful_time)."""
        self._need_instance("fmi3DoStep")
        event = fmi3Boolean(False)
        terminate = fmi3Boolean(False)
        early = fmi3Boolean(False)
        last = fmi3Float64(float("nan"))
        status = self.lib.fmi3DoStep(self.instance, current_time, step_size, bool(no_set_fmu_state_prior),
                                     ctypes.byref(event), ctypes.byref(terminate), ctypes.byref(early),
                                     ctypes.byref(last))
        self._check("fmi3DoStep", status, "t=%.17g, h=%.17g" % (current_time, step_size))
        return DoStepResult(event.value, terminate.value, early.value, last.value)

    # -- information ---------------------------------------------------------

    def version(self):
        return _decode(self.lib.fmi3GetVersion())
