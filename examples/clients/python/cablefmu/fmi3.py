"""Minimal ctypes binding for FMI 3.0 Co-Simulation FMUs (standard library only).

Typical use::

    import fmi3
    folder = fmi3.unzip("out/Hoist3.fmu", "out/Hoist3_fmu")
    slave = fmi3.FMU3Slave(folder, instance_name="hoist")
    slave.instantiate_co_simulation()
    slave.enter_initialization_mode(start_time=0.0)
    slave.exit_initialization_mode()          # now in Step Mode
    slave.set_float64(["suspension.x", "suspension.vx"], [0.0, 0.0])
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

Calls made every step
---------------------
``slave.float64_setter(refs)`` and ``slave.float64_getter(refs)`` return functions that set
and get the same variables again and again: the names are resolved and the
ctypes arrays built once, so that a master's step loop costs little Python
beside the FMU's own work.  They check the status as the other calls do.

Loading the shared library
--------------------------
Unpack an FMU once, reuse the folder (:func:`unzip` does so when the archive
has not changed) and create all instances from the same folder: this module
loads each binary path only once per process and shares the handle between
instances.  :mod:`fmucommon` explains why (a Go runtime per loaded path).

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
import math
import os

from . import fmucommon
from .fmucommon import unzip  # noqa: F401 (part of this module's interface)

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
STATUS_NAMES = fmucommon.status_names("fmi3")

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

class FMIError(fmucommon.FMIError):
    """A failed FMI call.

    Attributes: ``function`` (C function name), ``status`` (fmi3Status as int,
    or None when an fmi3Instantiate* function returned NULL or the call was
    not made) and ``messages`` (list of ``(status, category, text)`` tuples
    the FMU logged during the failed call).  The text shows the non-OK
    messages of the call.
    """

    STATUS_NAMES = STATUS_NAMES


# --------------------------------------------------------------------------
# modelDescription.xml
# --------------------------------------------------------------------------

#: Variable elements of FMI 3.0 (<ModelVariables> children).
VARIABLE_TYPES = ("Float32", "Float64", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32",
                  "Int64", "UInt64", "Boolean", "String", "Binary", "Enumeration", "Clock")


class Variable(fmucommon.VariableBase):
    """One variable of ``<ModelVariables>`` (a scalar or an array).

    ``dimensions`` lists the ``<Dimension>`` children as ``(start,
    value_reference)`` pairs (one of them None); ``shape`` is the resolved
    tuple of extents (``()`` for a scalar) and ``size`` the number of
    elements.  ``start`` is a number for a scalar with a start value and a
    flat list for an array.
    """

    __slots__ = ("dimensions", "shape")

    def __init__(self, name, value_reference, type_, causality, variability, initial, start,
                 unit, description, dimensions=()):
        super().__init__(name, value_reference, type_, causality, variability, initial, start,
                         unit, description)
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


class ModelDescription(fmucommon.ModelDescriptionBase):
    """The parts of an FMI 3.0 ``modelDescription.xml`` a Co-Simulation importer needs."""

    def __init__(self):
        super().__init__()
        self.instantiation_token = None
        self.description = None
        self.generation_tool = None
        self.has_model_exchange = False
        self.has_scheduled_execution = False
        self.can_serialize_fmu_state = False
        self.can_be_instantiated_only_once_per_process = False
        self.provides_directional_derivatives = False
        self.provides_adjoint_derivatives = False
        self.has_event_mode = False
        self.might_return_early = False
        self.provides_intermediate_update = False
        self.max_output_derivative_order = 0
        self.fixed_internal_step_size = None
        self.variables = collections.OrderedDict()  # name -> Variable
        self.by_vr = {}  # value reference -> Variable
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

    def size(self, ref):
        """Number of elements of a variable (1 for a scalar or an unknown value reference)."""
        if isinstance(ref, str):
            return self.variable(ref).size
        var = self.by_vr.get(int(ref))
        return var.size if var is not None else 1

    def shape(self, ref):
        return self.variable(ref).shape

    def independent(self):
        """The independent variable (``causality="independent"``), None if missing."""
        found = self.by_causality("independent")
        return found[0] if found else None


_TRUE = ("true", "1")


def _bool_attr(elem, name):
    return fmucommon.bool_attr(elem, name, _TRUE)


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
    path, root = fmucommon.read_root(path)
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
    cs = fmucommon.read_co_simulation(path, root, md, _TRUE)
    md.can_get_and_set_fmu_state = _bool_attr(cs, "canGetAndSetFMUState")
    md.can_serialize_fmu_state = _bool_attr(cs, "canSerializeFMUState")
    md.can_be_instantiated_only_once_per_process = _bool_attr(cs, "canBeInstantiatedOnlyOncePerProcess")
    md.provides_directional_derivatives = _bool_attr(cs, "providesDirectionalDerivatives")
    md.provides_adjoint_derivatives = _bool_attr(cs, "providesAdjointDerivatives")
    md.has_event_mode = _bool_attr(cs, "hasEventMode")
    md.might_return_early = _bool_attr(cs, "mightReturnEarlyFromDoStep")
    md.provides_intermediate_update = _bool_attr(cs, "providesIntermediateUpdate")
    md.max_output_derivative_order = int(cs.get("maxOutputDerivativeOrder", "0"))
    if cs.get("fixedInternalStepSize") is not None:
        md.fixed_internal_step_size = float(cs.get("fixedInternalStepSize"))
    fmucommon.read_experiment_and_categories(root, md)
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
# Locations inside an unpacked FMU (:func:`unzip` unpacks one)
# --------------------------------------------------------------------------

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

_libs = fmucommon.LibraryCache(_SIGNATURES, "fmi3_missing")


#: ``load_library(path)`` loads an FMU binary once per process and declares
#: all fmi3* signatures; it returns the shared :class:`ctypes.CDLL`, whose
#: attribute ``fmi3_missing`` lists the FMI 3.0 functions the binary does not
#: export (see the module docstring for why each path should be loaded only
#: once).  ``release_library(path)`` forgets the cached handle and
#: ``dlclose``-s it once: a no-op for Go binaries, so the next load of the
#: same path gets the same, still initialised library back.
load_library = _libs.load
release_library = _libs.release


def missing_functions(path):
    """The FMI 3.0 functions (of the standard's 75) the binary at ``path`` does not export."""
    return list(load_library(path).fmi3_missing)


_decode = fmucommon.decode


# --------------------------------------------------------------------------
# Flat and nested values
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

_env_ids = fmucommon.Counter()


class FMU3Slave(fmucommon.SlaveBase):
    """One FMI 3.0 Co-Simulation instance of an unpacked FMU (see :class:`fmucommon.SlaveBase`)."""

    ERROR = FMIError
    HANDLE = "instance"
    FREE = "fmi3FreeInstance"
    GET_STATE = "fmi3GetFMUState"
    SET_STATE = "fmi3SetFMUState"

    def __init__(self, unzipped_dir, instance_name="instance", echo=False, model_description=None):
        self._open(unzipped_dir, instance_name, echo, model_description, read_model_description, binary_path)
        if not os.path.isfile(self.library_path):
            raise FMIError("load", None, detail="no binary %s in the FMU" % self.library_path)
        self.lib = load_library(self.library_path)
        if self.lib.fmi3_missing:
            raise FMIError("load", None, detail="%s does not export %d of the %d FMI 3.0 functions: %s" % (
                self.library_path, len(self.lib.fmi3_missing), len(FUNCTION_NAMES),
                ", ".join(self.lib.fmi3_missing)))
        self._env_id = _env_ids.next()
        # The ctypes callback objects must outlive every call into the FMU
        # (the FMU keeps the pointers until fmi3FreeInstance): they live on
        # the instance.
        self._log_callback = fmi3LogMessageCallback(self._log)
        self._intermediate_callback = None
        self._required = None
        self._step_out = None  # do_step's output arguments

    # -- callbacks -----------------------------------------------------------

    def _log(self, env, status, category, message):
        self._record(status, _decode(category), _decode(message), self.instance_name)

    # -- internals -----------------------------------------------------------

    def _refs(self, refs):
        """(array of value references, their count, total number of values)."""
        out = self._value_references(refs)
        n_values = sum(self.md.size(vr) for vr in out)
        return (fmi3ValueReference * len(out))(*out), len(out), n_values

    # -- lifecycle -----------------------------------------------------------

    def instantiate_co_simulation(self, visible=False, logging_on=False, event_mode_used=False,
                                  early_return_allowed=False, required_intermediate_variables=(),
                                  intermediate_update=None, resource_path=None, instantiation_token=None):
        """fmi3InstantiateCoSimulation; raises FMIError (status None) when it returns NULL.

        ``intermediate_update``: a Python function with the arguments of
        fmi3IntermediateUpdateCallback, or None (NULL).  ``resource_path``
        defaults to the unpacked ``resources/`` folder (pass "" for NULL).
        """
        self._begin_instantiate("fmi3InstantiateCoSimulation")
        if resource_path is None:
            resource_path = _default_resource_path(self.unzipped_dir)
        token = self.md.instantiation_token if instantiation_token is None else instantiation_token
        required = self._value_references(list(required_intermediate_variables))
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
        return self._end_instantiate("fmi3InstantiateCoSimulation", inst)

    instantiate = instantiate_co_simulation

    def set_debug_logging(self, on=True, categories=()):
        self._need("fmi3SetDebugLogging")
        arr = (fmi3String * len(categories))(*[c.encode() for c in categories]) if categories else None
        return self._call_checked("fmi3SetDebugLogging", bool(on), len(categories), arr)

    def enter_initialization_mode(self, tolerance=None, start_time=0.0, stop_time=None):
        return self._call_checked(
            "fmi3EnterInitializationMode",
            tolerance is not None, 0.0 if tolerance is None else tolerance,
            start_time,
            stop_time is not None, 0.0 if stop_time is None else stop_time)

    exit_initialization_mode = fmucommon.plain_call("fmi3ExitInitializationMode")

    def initialize(self, start_time=0.0, stop_time=None, parameters=None, inputs=None):
        """Set ``parameters`` (dict name -> value), enter initialization mode, set ``inputs``, exit."""
        if parameters:
            self.set_values(list(parameters), [parameters[k] for k in parameters])
        self.enter_initialization_mode(start_time=start_time, stop_time=stop_time)
        if inputs:
            self.set_values(list(inputs), [inputs[k] for k in inputs])
        self.exit_initialization_mode()
        return self

    enter_step_mode = fmucommon.plain_call("fmi3EnterStepMode")
    enter_event_mode = fmucommon.plain_call("fmi3EnterEventMode")
    enter_configuration_mode = fmucommon.plain_call("fmi3EnterConfigurationMode")
    exit_configuration_mode = fmucommon.plain_call("fmi3ExitConfigurationMode")
    terminate = fmucommon.plain_call("fmi3Terminate")
    reset = fmucommon.plain_call("fmi3Reset")

    # -- values --------------------------------------------------------------

    def set_float64(self, refs, values):
        """fmi3SetFloat64: ``values`` holds every element of every variable (nested lists are flattened)."""
        self._need("fmi3SetFloat64")
        vrs, n, n_values = self._refs(refs)
        values = flatten(values)
        if len(values) != n_values:
            raise ValueError("set_float64: %d references with %d elements but %d values"
                             % (n, n_values, len(values)))
        vals = (fmi3Float64 * n_values)(*values)
        return self._call_checked("fmi3SetFloat64", vrs, n, vals, n_values)

    def get_float64(self, refs):
        """fmi3GetFloat64: a flat list of every element of every variable (row-major)."""
        self._need("fmi3GetFloat64")
        vrs, n, n_values = self._refs(refs)
        vals = (fmi3Float64 * n_values)()
        self._call_checked("fmi3GetFloat64", vrs, n, vals, n_values)
        return list(vals)

    def set_int32(self, refs, values):
        """fmi3SetInt32."""
        self._need("fmi3SetInt32")
        vrs, n, n_values = self._refs(refs)
        values = flatten(values)
        if len(values) != n_values:
            raise ValueError("set_int32: %d references with %d elements but %d values" % (n, n_values, len(values)))
        return self._call_checked("fmi3SetInt32", vrs, n, (fmi3Int32 * n_values)(*[int(v) for v in values]), n_values)

    def get_int32(self, refs):
        """fmi3GetInt32: a flat list of every element of every variable."""
        self._need("fmi3GetInt32")
        vrs, n, n_values = self._refs(refs)
        vals = (fmi3Int32 * n_values)()
        self._call_checked("fmi3GetInt32", vrs, n, vals, n_values)
        return list(vals)

    def set_boolean(self, refs, values):
        """fmi3SetBoolean."""
        self._need("fmi3SetBoolean")
        vrs, n, n_values = self._refs(refs)
        values = flatten(values)
        if len(values) != n_values:
            raise ValueError("set_boolean: %d references with %d elements but %d values" % (n, n_values, len(values)))
        return self._call_checked("fmi3SetBoolean", vrs, n, (fmi3Boolean * n_values)(*[bool(v) for v in values]), n_values)

    def get_boolean(self, refs):
        """fmi3GetBoolean: a flat list of every element of every variable."""
        self._need("fmi3GetBoolean")
        vrs, n, n_values = self._refs(refs)
        vals = (fmi3Boolean * n_values)()
        self._call_checked("fmi3GetBoolean", vrs, n, vals, n_values)
        return [bool(v) for v in vals]

    def _size(self, name):
        return self.md.size(self.md.vr(name)) if isinstance(name, str) else self.md.size(name)

    # The typed calls by the model description's type name, for the
    # generic get_values and set_values (fmucommon.SlaveBase).
    _GETTERS = {"Float64": "get_float64", "Int32": "get_int32", "Boolean": "get_boolean"}
    _SETTERS = {"Float64": "set_float64", "Int32": "set_int32", "Boolean": "set_boolean"}

    # The same calls for a master that sets and gets the same variables
    # every step: the value references are resolved and the ctypes arrays
    # built once, when the function is made.

    def float64_setter(self, refs):
        """A function ``set(values)`` doing ``set_float64(refs, values)``."""
        vrs, n, n_values = self._refs(refs)
        vals = (fmi3Float64 * n_values)()
        call = self._repeated("fmi3SetFloat64", vrs, n, vals, n_values)
        arrays = n_values != n  # then nested values are flattened

        def set_float64(values):
            if arrays:
                values = flatten(values)
            if len(values) != n_values:
                raise ValueError("set_float64: %d references with %d elements but %d values"
                                 % (n, n_values, len(values)))
            vals[:] = values
            return call()

        return set_float64

    def float64_getter(self, refs):
        """A function ``get()`` returning ``get_float64(refs)``."""
        vrs, n, n_values = self._refs(refs)
        vals = (fmi3Float64 * n_values)()
        call = self._repeated("fmi3GetFloat64", vrs, n, vals, n_values)

        def get_float64():
            call()
            return vals[:]

        return get_float64

    def get_array(self, ref):
        """One variable's values as nested lists of its shape (a number for a scalar)."""
        var = self.md.variable(ref)
        return reshape(self.get_float64([var.value_reference]), var.shape)

    def get_output_derivatives(self, refs, orders):
        self._need("fmi3GetOutputDerivatives")
        vrs, n, n_values = self._refs(refs)
        if isinstance(orders, int):
            orders = [orders] * n
        ords = (fmi3Int32 * n)(*orders)
        vals = (fmi3Float64 * n_values)()
        self._call_checked("fmi3GetOutputDerivatives", vrs, n, ords, vals, n_values)
        return list(vals)

    # -- FMU state -----------------------------------------------------------
    # (get_fmu_state and set_fmu_state come from fmucommon.SlaveBase)

    def free_fmu_state(self, state):
        """fmi3FreeFMUState; returns the handle the FMU left (NULL, i.e. None, after success)."""
        return self._state_out("fmi3FreeFMUState", state)

    def serialized_fmu_state_size(self, state):
        return self._state_size("fmi3SerializedFMUStateSize", state)

    def serialize_fmu_state(self, state):
        """Returns the state as bytes."""
        size = self.serialized_fmu_state_size(state)
        self._need("fmi3SerializeFMUState")
        buf = (fmi3Byte * size)()
        self._call_checked("fmi3SerializeFMUState", state, buf, size)
        return bytes(buf)

    def deserialize_fmu_state(self, data):
        """Returns a state handle read from bytes."""
        self._need("fmi3DeserializeFMUState")
        return self._deserialize("fmi3DeserializeFMUState", fmi3Byte, data)

    # -- stepping ------------------------------------------------------------

    def do_step(self, current_time, step_size, no_set_fmu_state_prior=True):
        """fmi3DoStep; returns :data:`DoStepResult` (event_handling_needed,
        terminate_simulation, early_return, last_successful_time)."""
        self._need("fmi3DoStep")
        out = self._step_out
        if out is None:  # the output arguments, made once and reset before each step
            out = self._step_out = (fmi3Boolean(), fmi3Boolean(), fmi3Boolean(), fmi3Float64())
            self._step_refs = tuple(ctypes.byref(x) for x in out)
        event, terminate, early, last = out
        event.value = terminate.value = early.value = False
        last.value = math.nan
        status = self.lib.fmi3DoStep(self.instance, current_time, step_size, bool(no_set_fmu_state_prior),
                                     *self._step_refs)
        if status != OK and status != WARNING:  # the text only for a failure: a run makes thousands of steps
            self._check("fmi3DoStep", status, "t=%.17g, h=%.17g" % (current_time, step_size))
        return DoStepResult(event.value, terminate.value, early.value, last.value)

    # -- information ---------------------------------------------------------

    def version(self):
        return _decode(self.lib.fmi3GetVersion())
