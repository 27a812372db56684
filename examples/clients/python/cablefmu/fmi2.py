"""Minimal ctypes binding for FMI 2.0 Co-Simulation FMUs (standard library only).

Typical use::

    import fmi2
    folder = fmi2.unzip("out/Hoist.fmu", "out/Hoist_fmu")
    slave = fmi2.FMU2Slave(folder, instance_name="hoist")
    slave.instantiate()
    slave.setup_experiment(start_time=0.0)
    slave.enter_initialization_mode()
    slave.exit_initialization_mode()
    slave.set_real(["suspension.x", "suspension.vx"], [0.0, 0.0])
    slave.do_step(0.0, 0.01)
    tension, = slave.get_real(["cable.tension"])
    slave.terminate()
    slave.free()

Every wrapped call checks the returned fmi2Status.  fmi2OK and fmi2Warning
return normally (warnings stay in ``slave.messages``); fmi2Discard, fmi2Error,
fmi2Fatal and fmi2Pending raise :class:`FMIError`, which carries the function
name, the status and the messages the FMU logged during that call.

Calls made every step
---------------------
``slave.real_setter(refs)`` and ``slave.real_getter(refs)`` return functions that set
and get the same variables again and again: the names are resolved and the
ctypes arrays built once, so that a master's step loop costs little Python
beside the FMU's own work.  They check the status as the other calls do.

Loading the shared library
--------------------------
Unpack an FMU once, reuse the folder (:func:`unzip` does so when the archive
has not changed) and create all instances from the same folder: this module
loads each binary path only once per process and shares the handle between
instances.  :mod:`fmucommon` explains why (a Go runtime per loaded path).

Logger callback
---------------
``fmi2CallbackLogger`` is variadic in C
(``void logger(env, instanceName, status, category, message, ...)``).  ctypes
cannot define variadic callbacks, so the logger is declared with a fixed
sixth parameter that receives the first variadic argument.  This relies on
the x86-64 System V calling convention (the first six integer/pointer
arguments are passed in registers whether or not the function is variadic)
and on the FMU calling the logger as ``logger(..., "%s", text)`` -- the FMUs
of this project always do.  The extra argument is only dereferenced when the
format string is exactly one ``%s`` conversion; any other format string is
reported verbatim.
"""

import ctypes
import ctypes.util
import math
import os
import urllib.request

from . import fmucommon
from .fmucommon import unzip  # noqa: F401 (part of this module's interface)

__all__ = [
    "OK", "WARNING", "DISCARD", "ERROR", "FATAL", "PENDING", "STATUS_NAMES",
    "MODEL_EXCHANGE", "CO_SIMULATION",
    "FMIError", "ScalarVariable", "ModelDescription",
    "read_model_description", "unzip", "binary_path", "resource_uri",
    "load_library", "release_library", "FMU2Slave", "FUNCTION_NAMES",
    "MODEL_EXCHANGE_FUNCTIONS", "all_finite",
]

# --------------------------------------------------------------------------
# FMI 2.0 basic types (fmi2TypesPlatform.h, "default" platform)
# --------------------------------------------------------------------------

fmi2Component = ctypes.c_void_p
fmi2ComponentEnvironment = ctypes.c_void_p
fmi2FMUstate = ctypes.c_void_p
fmi2ValueReference = ctypes.c_uint
fmi2Real = ctypes.c_double
fmi2Integer = ctypes.c_int
fmi2Boolean = ctypes.c_int
fmi2Char = ctypes.c_char
fmi2String = ctypes.c_char_p
fmi2Byte = ctypes.c_char
fmi2Status = ctypes.c_int  # enum
fmi2Type = ctypes.c_int  # enum
fmi2StatusKind = ctypes.c_int  # enum

fmi2True = 1
fmi2False = 0

# fmi2Status
OK, WARNING, DISCARD, ERROR, FATAL, PENDING = range(6)
STATUS_NAMES = fmucommon.status_names("fmi2", fmucommon.STATUS_WORDS + ("Pending",))

# fmi2Type
MODEL_EXCHANGE, CO_SIMULATION = 0, 1

# fmi2StatusKind
DO_STEP_STATUS, PENDING_STATUS, LAST_SUCCESSFUL_TIME, TERMINATED = range(4)

# Callback function types (fmi2FunctionTypes.h).  See the module docstring
# for the declaration of the variadic logger.
fmi2CallbackLogger = ctypes.CFUNCTYPE(
    None,
    fmi2ComponentEnvironment,  # componentEnvironment
    fmi2String,  # instanceName
    fmi2Status,  # status
    fmi2String,  # category
    fmi2String,  # message (a printf format)
    ctypes.c_void_p,  # first variadic argument (the text for "%s")
)
fmi2CallbackAllocateMemory = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t)
fmi2CallbackFreeMemory = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
fmi2StepFinished = ctypes.CFUNCTYPE(None, fmi2ComponentEnvironment, fmi2Status)


class fmi2CallbackFunctions(ctypes.Structure):
    _fields_ = [
        ("logger", fmi2CallbackLogger),
        ("allocateMemory", fmi2CallbackAllocateMemory),
        ("freeMemory", fmi2CallbackFreeMemory),
        ("stepFinished", fmi2StepFinished),
        ("componentEnvironment", fmi2ComponentEnvironment),
    ]


class fmi2EventInfo(ctypes.Structure):
    _fields_ = [
        ("newDiscreteStatesNeeded", fmi2Boolean),
        ("terminateSimulation", fmi2Boolean),
        ("nominalsOfContinuousStatesChanged", fmi2Boolean),
        ("valuesOfContinuousStatesChanged", fmi2Boolean),
        ("nextEventTimeDefined", fmi2Boolean),
        ("nextEventTime", fmi2Real),
    ]


_P = ctypes.POINTER
_c = fmi2Component
_vr = _P(fmi2ValueReference)
_st = ctypes.c_size_t

# name -> (restype, argtypes) for all 44 functions of FMI 2.0.
_SIGNATURES = {
    # common functions
    "fmi2GetTypesPlatform": (ctypes.c_char_p, []),
    "fmi2GetVersion": (ctypes.c_char_p, []),
    "fmi2SetDebugLogging": (fmi2Status, [_c, fmi2Boolean, _st, _P(fmi2String)]),
    "fmi2Instantiate": (fmi2Component, [fmi2String, fmi2Type, fmi2String, fmi2String,
                                        _P(fmi2CallbackFunctions), fmi2Boolean, fmi2Boolean]),
    "fmi2FreeInstance": (None, [_c]),
    "fmi2SetupExperiment": (fmi2Status, [_c, fmi2Boolean, fmi2Real, fmi2Real, fmi2Boolean, fmi2Real]),
    "fmi2EnterInitializationMode": (fmi2Status, [_c]),
    "fmi2ExitInitializationMode": (fmi2Status, [_c]),
    "fmi2Terminate": (fmi2Status, [_c]),
    "fmi2Reset": (fmi2Status, [_c]),
    "fmi2GetReal": (fmi2Status, [_c, _vr, _st, _P(fmi2Real)]),
    "fmi2GetInteger": (fmi2Status, [_c, _vr, _st, _P(fmi2Integer)]),
    "fmi2GetBoolean": (fmi2Status, [_c, _vr, _st, _P(fmi2Boolean)]),
    "fmi2GetString": (fmi2Status, [_c, _vr, _st, _P(fmi2String)]),
    "fmi2SetReal": (fmi2Status, [_c, _vr, _st, _P(fmi2Real)]),
    "fmi2SetInteger": (fmi2Status, [_c, _vr, _st, _P(fmi2Integer)]),
    "fmi2SetBoolean": (fmi2Status, [_c, _vr, _st, _P(fmi2Boolean)]),
    "fmi2SetString": (fmi2Status, [_c, _vr, _st, _P(fmi2String)]),
    "fmi2GetFMUstate": (fmi2Status, [_c, _P(fmi2FMUstate)]),
    "fmi2SetFMUstate": (fmi2Status, [_c, fmi2FMUstate]),
    "fmi2FreeFMUstate": (fmi2Status, [_c, _P(fmi2FMUstate)]),
    "fmi2SerializedFMUstateSize": (fmi2Status, [_c, fmi2FMUstate, _P(ctypes.c_size_t)]),
    "fmi2SerializeFMUstate": (fmi2Status, [_c, fmi2FMUstate, _P(fmi2Byte), _st]),
    "fmi2DeSerializeFMUstate": (fmi2Status, [_c, _P(fmi2Byte), _st, _P(fmi2FMUstate)]),
    "fmi2GetDirectionalDerivative": (fmi2Status, [_c, _vr, _st, _vr, _st, _P(fmi2Real), _P(fmi2Real)]),
    # Model Exchange
    "fmi2EnterEventMode": (fmi2Status, [_c]),
    "fmi2NewDiscreteStates": (fmi2Status, [_c, _P(fmi2EventInfo)]),
    "fmi2EnterContinuousTimeMode": (fmi2Status, [_c]),
    "fmi2CompletedIntegratorStep": (fmi2Status, [_c, fmi2Boolean, _P(fmi2Boolean), _P(fmi2Boolean)]),
    "fmi2SetTime": (fmi2Status, [_c, fmi2Real]),
    "fmi2SetContinuousStates": (fmi2Status, [_c, _P(fmi2Real), _st]),
    "fmi2GetDerivatives": (fmi2Status, [_c, _P(fmi2Real), _st]),
    "fmi2GetEventIndicators": (fmi2Status, [_c, _P(fmi2Real), _st]),
    "fmi2GetContinuousStates": (fmi2Status, [_c, _P(fmi2Real), _st]),
    "fmi2GetNominalsOfContinuousStates": (fmi2Status, [_c, _P(fmi2Real), _st]),
    # Co-Simulation
    "fmi2SetRealInputDerivatives": (fmi2Status, [_c, _vr, _st, _P(fmi2Integer), _P(fmi2Real)]),
    "fmi2GetRealOutputDerivatives": (fmi2Status, [_c, _vr, _st, _P(fmi2Integer), _P(fmi2Real)]),
    "fmi2DoStep": (fmi2Status, [_c, fmi2Real, fmi2Real, fmi2Boolean]),
    "fmi2CancelStep": (fmi2Status, [_c]),
    "fmi2GetStatus": (fmi2Status, [_c, fmi2StatusKind, _P(fmi2Status)]),
    "fmi2GetRealStatus": (fmi2Status, [_c, fmi2StatusKind, _P(fmi2Real)]),
    "fmi2GetIntegerStatus": (fmi2Status, [_c, fmi2StatusKind, _P(fmi2Integer)]),
    "fmi2GetBooleanStatus": (fmi2Status, [_c, fmi2StatusKind, _P(fmi2Boolean)]),
    "fmi2GetStringStatus": (fmi2Status, [_c, fmi2StatusKind, _P(fmi2String)]),
}

#: The names of the 44 functions an FMI 2.0 binary exports.
FUNCTION_NAMES = tuple(_SIGNATURES)

#: The functions that belong to FMI 2.0 Model Exchange only.
MODEL_EXCHANGE_FUNCTIONS = (
    "fmi2EnterEventMode", "fmi2NewDiscreteStates", "fmi2EnterContinuousTimeMode",
    "fmi2CompletedIntegratorStep", "fmi2SetTime", "fmi2SetContinuousStates",
    "fmi2GetDerivatives", "fmi2GetEventIndicators", "fmi2GetContinuousStates",
    "fmi2GetNominalsOfContinuousStates",
)


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------

class FMIError(fmucommon.FMIError):
    """A failed FMI call.

    Attributes: ``function`` (C function name), ``status`` (fmi2Status as int,
    or None when fmi2Instantiate returned NULL) and ``messages`` (list of
    ``(status, category, text)`` tuples the FMU logged during the failed
    call).  The text shows the non-OK messages of the call.
    """

    STATUS_NAMES = STATUS_NAMES


# --------------------------------------------------------------------------
# modelDescription.xml
# --------------------------------------------------------------------------

class ScalarVariable(fmucommon.VariableBase):
    """One ``<ScalarVariable>`` of the model description."""

    __slots__ = ()

    def __repr__(self):
        return "ScalarVariable(%r, vr=%d, %s, %s, %s, start=%r)" % (
            self.name, self.value_reference, self.type, self.causality,
            self.variability, self.start)


class ModelDescription(fmucommon.ModelDescriptionBase):
    """The parts of ``modelDescription.xml`` a Co-Simulation master needs."""

    def __init__(self):
        super().__init__()
        self.guid = None
        self.can_interpolate_inputs = False
        self.max_output_derivative_order = 0
        self.variables = {}  # name -> ScalarVariable

    def vr(self, name):
        """Value reference of the variable called ``name`` (KeyError if unknown)."""
        try:
            return self.variables[name].value_reference
        except KeyError:
            raise KeyError("no variable %r in model description of %s" % (name, self.model_name)) from None


_bool_attr = fmucommon.bool_attr


def _parse_start(type_, text):
    if text is None:
        return None
    if type_ == "Real":
        return float(text)
    if type_ in ("Integer", "Enumeration"):
        return int(text)
    if type_ == "Boolean":
        return text.strip().lower() in ("true", "1")
    return text


def read_model_description(path):
    """Parse ``modelDescription.xml`` (give the file, an unpacked FMU folder or an .fmu)."""
    path, root = fmucommon.read_root(path)
    md = ModelDescription()
    md.fmi_version = root.get("fmiVersion")
    md.model_name = root.get("modelName")
    md.guid = root.get("guid")
    cs = fmucommon.read_co_simulation(path, root, md)
    md.can_interpolate_inputs = _bool_attr(cs, "canInterpolateInputs")
    md.can_get_and_set_fmu_state = _bool_attr(cs, "canGetAndSetFMUstate")
    md.max_output_derivative_order = int(cs.get("maxOutputDerivativeOrder", "0")) if cs is not None else 0
    fmucommon.read_experiment_and_categories(root, md)
    mv = root.find("ModelVariables")
    for sv in (mv.findall("ScalarVariable") if mv is not None else []):
        type_elem = None
        for child in sv:
            if child.tag in ("Real", "Integer", "Boolean", "String", "Enumeration"):
                type_elem = child
                break
        type_ = type_elem.tag if type_elem is not None else None
        var = ScalarVariable(
            name=sv.get("name"),
            value_reference=int(sv.get("valueReference")),
            type_=type_,
            causality=sv.get("causality", "local"),
            variability=sv.get("variability", "continuous"),
            initial=sv.get("initial"),
            start=_parse_start(type_, type_elem.get("start") if type_elem is not None else None),
            unit=type_elem.get("unit") if type_elem is not None else None,
            description=sv.get("description"),
        )
        md.variables[var.name] = var
    return md


# --------------------------------------------------------------------------
# Locations inside an unpacked FMU (:func:`unzip` unpacks one)
# --------------------------------------------------------------------------

def binary_path(unzipped_dir, model_identifier):
    """Path of the Linux x86-64 binary inside an unpacked FMU."""
    return os.path.join(os.path.abspath(unzipped_dir), "binaries", "linux64", model_identifier + ".so")


def resource_uri(unzipped_dir):
    """``file://`` URI of the resources folder of an unpacked FMU."""
    path = os.path.join(os.path.abspath(unzipped_dir), "resources")
    return "file://" + urllib.request.pathname2url(path)


# --------------------------------------------------------------------------
# Loading the binary
# --------------------------------------------------------------------------

_libs = fmucommon.LibraryCache(_SIGNATURES, "fmi2_missing")


#: ``load_library(path)`` loads an FMU binary once per process and declares
#: all fmi2* signatures; it returns the shared :class:`ctypes.CDLL`, whose
#: attribute ``fmi2_missing`` lists the FMI 2.0 functions the binary does not
#: export (see the module docstring for why each path should be loaded only
#: once).  ``release_library(path)`` forgets the cached handle and
#: ``dlclose``-s it once: a no-op for Go binaries, so the next load of the
#: same path gets the same, still initialised library back.
load_library = _libs.load
release_library = _libs.release


# libc's calloc/free serve as allocateMemory/freeMemory: no Python code runs
# (and no GIL is needed) when the FMU allocates.
_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
_CALLOC = fmi2CallbackAllocateMemory(ctypes.cast(_libc.calloc, ctypes.c_void_p).value)
_FREE = fmi2CallbackFreeMemory(ctypes.cast(_libc.free, ctypes.c_void_p).value)

_decode = fmucommon.decode


# --------------------------------------------------------------------------
# The slave
# --------------------------------------------------------------------------

_env_ids = fmucommon.Counter()


class FMU2Slave(fmucommon.SlaveBase):
    """One FMI 2.0 Co-Simulation instance of an unpacked FMU (see :class:`fmucommon.SlaveBase`)."""

    ERROR = FMIError
    HANDLE = "component"
    FREE = "fmi2FreeInstance"
    GET_STATE = "fmi2GetFMUstate"
    SET_STATE = "fmi2SetFMUstate"

    def __init__(self, unzipped_dir, instance_name="instance", echo=False, model_description=None):
        self._open(unzipped_dir, instance_name, echo, model_description, read_model_description, binary_path)
        self.lib = load_library(self.library_path)
        if self.lib.fmi2_missing:
            raise FMIError("load", None, detail="%s does not export %s" % (
                self.library_path, ", ".join(self.lib.fmi2_missing)))
        self._env_id = _env_ids.next()
        # The ctypes callback objects must outlive every call into the FMU:
        # they are kept on the instance together with the struct using them.
        self._logger = fmi2CallbackLogger(self._log)
        self._step_finished = fmi2StepFinished(self._on_step_finished)
        self._callbacks = fmi2CallbackFunctions(
            logger=self._logger,
            allocateMemory=_CALLOC,
            freeMemory=_FREE,
            stepFinished=self._step_finished,
            componentEnvironment=self._env_id,
        )

    # -- callbacks -----------------------------------------------------------

    def _log(self, env, instance_name, status, category, message, arg0):
        fmt = _decode(message)
        if fmt == "%s" or (fmt.count("%") == 1 and "%s" in fmt):
            text = fmt.replace("%s", _decode(ctypes.string_at(arg0)) if arg0 else "(null)")
        else:
            text = fmt.replace("%%", "%")
        self._record(status, _decode(category), text, _decode(instance_name))

    def _on_step_finished(self, env, status):
        self.messages.append((int(status), "stepFinished", "asynchronous step finished"))

    # -- helpers -------------------------------------------------------------

    def _refs(self, refs):
        out = self._value_references(refs)
        return (fmi2ValueReference * len(out))(*out), len(out)

    # -- lifecycle -----------------------------------------------------------

    def instantiate(self, visible=False, logging_on=False, resource_location=None, guid=None,
                    fmu_type=CO_SIMULATION):
        """fmi2Instantiate; raises FMIError (status None) when it returns NULL."""
        self._begin_instantiate("fmi2Instantiate")
        if resource_location is None:
            resource_location = resource_uri(self.unzipped_dir)
        comp = self.lib.fmi2Instantiate(
            self.instance_name.encode(), fmu_type,
            (self.md.guid if guid is None else guid).encode(),
            resource_location.encode() if resource_location else None,
            ctypes.byref(self._callbacks),
            fmi2True if visible else fmi2False,
            fmi2True if logging_on else fmi2False)
        return self._end_instantiate("fmi2Instantiate", comp)

    def set_debug_logging(self, on=True, categories=()):
        self._need("fmi2SetDebugLogging")
        arr = (fmi2String * len(categories))(*[c.encode() for c in categories])
        return self._call_checked("fmi2SetDebugLogging", fmi2True if on else fmi2False, len(categories), arr)

    def setup_experiment(self, start_time=0.0, stop_time=None, tolerance=None):
        return self._call_checked(
            "fmi2SetupExperiment",
            fmi2False if tolerance is None else fmi2True, 0.0 if tolerance is None else tolerance,
            start_time,
            fmi2False if stop_time is None else fmi2True, 0.0 if stop_time is None else stop_time)

    enter_initialization_mode = fmucommon.plain_call("fmi2EnterInitializationMode")
    exit_initialization_mode = fmucommon.plain_call("fmi2ExitInitializationMode")

    def initialize(self, start_time=0.0, stop_time=None, parameters=None):
        """setup_experiment + set ``parameters`` (dict name -> value) + enter/exit initialization."""
        self.setup_experiment(start_time=start_time, stop_time=stop_time)
        if parameters:
            self.set_values(list(parameters), list(parameters.values()))
        self.enter_initialization_mode()
        self.exit_initialization_mode()
        return self

    terminate = fmucommon.plain_call("fmi2Terminate")
    reset = fmucommon.plain_call("fmi2Reset")

    # -- values --------------------------------------------------------------

    def set_real(self, refs, values):
        self._need("fmi2SetReal")
        vrs, n = self._refs(refs)
        values = list(values) if not isinstance(values, (int, float)) else [values]
        if len(values) != n:
            raise ValueError("set_real: %d references but %d values" % (n, len(values)))
        vals = (fmi2Real * n)(*values)
        return self._call_checked("fmi2SetReal", vrs, n, vals)

    def get_real(self, refs):
        self._need("fmi2GetReal")
        vrs, n = self._refs(refs)
        vals = (fmi2Real * n)()
        self._call_checked("fmi2GetReal", vrs, n, vals)
        return list(vals)

    def set_integer(self, refs, values):
        self._need("fmi2SetInteger")
        vrs, n = self._refs(refs)
        values = list(values) if not isinstance(values, (int, float)) else [values]
        if len(values) != n:
            raise ValueError("set_integer: %d references but %d values" % (n, len(values)))
        return self._call_checked("fmi2SetInteger", vrs, n, (fmi2Integer * n)(*[int(v) for v in values]))

    def get_integer(self, refs):
        self._need("fmi2GetInteger")
        vrs, n = self._refs(refs)
        vals = (fmi2Integer * n)()
        self._call_checked("fmi2GetInteger", vrs, n, vals)
        return list(vals)

    def set_boolean(self, refs, values):
        self._need("fmi2SetBoolean")
        vrs, n = self._refs(refs)
        values = list(values) if not isinstance(values, (bool, int, float)) else [values]
        if len(values) != n:
            raise ValueError("set_boolean: %d references but %d values" % (n, len(values)))
        return self._call_checked("fmi2SetBoolean", vrs, n, (fmi2Boolean * n)(*[fmi2True if v else fmi2False for v in values]))

    def get_boolean(self, refs):
        self._need("fmi2GetBoolean")
        vrs, n = self._refs(refs)
        vals = (fmi2Boolean * n)()
        self._call_checked("fmi2GetBoolean", vrs, n, vals)
        return [v != fmi2False for v in vals]

    # The typed calls by the model description's type name, for the
    # generic get_values and set_values (fmucommon.SlaveBase).
    _GETTERS = {"Real": "get_real", "Integer": "get_integer", "Boolean": "get_boolean"}
    _SETTERS = {"Real": "set_real", "Integer": "set_integer", "Boolean": "set_boolean"}

    # The same calls for a master that sets and gets the same variables
    # every step: the value references are resolved and the ctypes arrays
    # built once, when the function is made.

    def real_setter(self, refs):
        """A function ``set(values)`` doing ``set_real(refs, values)``."""
        vrs, n = self._refs(refs)
        vals = (fmi2Real * n)()
        call = self._repeated("fmi2SetReal", vrs, n, vals)

        def set_real(values):
            if len(values) != n:
                raise ValueError("set_real: %d references but %d values" % (n, len(values)))
            vals[:] = values
            return call()

        return set_real

    def real_getter(self, refs):
        """A function ``get()`` returning ``get_real(refs)``."""
        vrs, n = self._refs(refs)
        vals = (fmi2Real * n)()
        call = self._repeated("fmi2GetReal", vrs, n, vals)

        def get_real():
            call()
            return vals[:]

        return get_real

    def real_input_derivatives_setter(self, refs, orders):
        """A function ``set(values)`` doing ``set_real_input_derivatives(refs, orders, values)``."""
        vrs, n = self._refs(refs)
        if isinstance(orders, int):
            orders = [orders] * n
        if len(orders) != n:
            raise ValueError("set_real_input_derivatives: lengths differ")
        ords = (fmi2Integer * n)(*orders)
        vals = (fmi2Real * n)()
        call = self._repeated("fmi2SetRealInputDerivatives", vrs, n, ords, vals)

        def set_real_input_derivatives(values):
            if len(values) != n:
                raise ValueError("set_real_input_derivatives: lengths differ")
            vals[:] = values
            return call()

        return set_real_input_derivatives

    def set_real_input_derivatives(self, refs, orders, values):
        self._need("fmi2SetRealInputDerivatives")
        vrs, n = self._refs(refs)
        if isinstance(orders, int):
            orders = [orders] * n
        if len(orders) != n or len(values) != n:
            raise ValueError("set_real_input_derivatives: lengths differ")
        ords = (fmi2Integer * n)(*orders)
        vals = (fmi2Real * n)(*values)
        return self._call_checked("fmi2SetRealInputDerivatives", vrs, n, ords, vals)

    def get_real_output_derivatives(self, refs, orders):
        self._need("fmi2GetRealOutputDerivatives")
        vrs, n = self._refs(refs)
        if isinstance(orders, int):
            orders = [orders] * n
        ords = (fmi2Integer * n)(*orders)
        vals = (fmi2Real * n)()
        self._call_checked("fmi2GetRealOutputDerivatives", vrs, n, ords, vals)
        return list(vals)

    # -- stepping ------------------------------------------------------------
    # (get_fmu_state and set_fmu_state come from fmucommon.SlaveBase)

    def free_fmu_state(self, state):
        self._need("fmi2FreeFMUstate")
        handle = fmi2FMUstate(state)
        return self._call_checked("fmi2FreeFMUstate", ctypes.byref(handle))

    def serialize_fmu_state(self, state):
        """Returns the state as bytes."""
        self._need("fmi2SerializeFMUstate")
        size = self._state_size("fmi2SerializedFMUstateSize", state)
        buf = (fmi2Byte * size)()
        self._call_checked("fmi2SerializeFMUstate", state, buf, size)
        return bytes(ctypes.cast(buf, ctypes.POINTER(ctypes.c_char * size)).contents)

    def deserialize_fmu_state(self, data):
        """Returns a state handle read from bytes."""
        self._need("fmi2DeSerializeFMUstate")
        return self._deserialize("fmi2DeSerializeFMUstate", fmi2Byte, data)

    def do_step(self, current_time, step_size, no_set_fmu_state_prior=True):
        self._need("fmi2DoStep")
        status = self.lib.fmi2DoStep(self.component, current_time, step_size,
                                     fmi2True if no_set_fmu_state_prior else fmi2False)
        if status != OK and status != WARNING:  # the text only for a failure: a run makes thousands of steps
            self._check("fmi2DoStep", status, "t=%.17g, h=%.17g" % (current_time, step_size))
        return status

    def get_status(self, kind=DO_STEP_STATUS):
        value = fmi2Status(0)
        self._call_checked("fmi2GetStatus", kind, ctypes.byref(value))
        return value.value

    def get_real_status(self, kind=LAST_SUCCESSFUL_TIME):
        value = fmi2Real(0.0)
        self._call_checked("fmi2GetRealStatus", kind, ctypes.byref(value))
        return value.value

    # -- information ---------------------------------------------------------

    def version(self):
        return _decode(self.lib.fmi2GetVersion())

    def types_platform(self):
        return _decode(self.lib.fmi2GetTypesPlatform())


def all_finite(values):
    """True when no value is NaN or infinite."""
    return all(math.isfinite(v) for v in values)
