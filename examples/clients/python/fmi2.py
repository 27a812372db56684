"""Minimal ctypes binding for FMI 2.0 Co-Simulation FMUs (standard library only).

Typical use::

    import fmi2
    folder = fmi2.unzip("out/Hoist.fmu", "out/Hoist_fmu")
    slave = fmi2.FMU2Slave(folder, instance_name="hoist")
    slave.instantiate()
    slave.setup_experiment(start_time=0.0)
    slave.enter_initialization_mode()
    slave.exit_initialization_mode()
    slave.set_real(["hoist.x", "hoist.vx"], [0.0, 0.0])
    slave.do_step(0.0, 0.01)
    tension, = slave.get_real(["cable.tension"])
    slave.terminate()
    slave.free()

Every wrapped call checks the returned fmi2Status.  fmi2OK and fmi2Warning
return normally (warnings stay in ``slave.messages``); fmi2Discard, fmi2Error,
fmi2Fatal and fmi2Pending raise :class:`FMIError`, which carries the function
name, the status and the messages the FMU logged during that call.

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
import hashlib
import math
import os
import shutil
import tempfile
import threading
import urllib.request
import xml.etree.ElementTree as ET
import zipfile

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
STATUS_NAMES = {
    OK: "fmi2OK",
    WARNING: "fmi2Warning",
    DISCARD: "fmi2Discard",
    ERROR: "fmi2Error",
    FATAL: "fmi2Fatal",
    PENDING: "fmi2Pending",
}

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

class FMIError(Exception):
    """A failed FMI call.

    Attributes: ``function`` (C function name), ``status`` (fmi2Status as int,
    or None when fmi2Instantiate returned NULL) and ``messages`` (list of
    ``(status, category, text)`` tuples the FMU logged during the failed
    call).  The text shows the non-OK messages of the call.
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

class ScalarVariable:
    """One ``<ScalarVariable>`` of the model description."""

    __slots__ = ("name", "value_reference", "type", "causality", "variability",
                 "initial", "start", "unit", "description")

    def __init__(self, name, value_reference, type_, causality, variability,
                 initial, start, unit, description):
        self.name = name
        self.value_reference = value_reference
        self.type = type_
        self.causality = causality
        self.variability = variability
        self.initial = initial
        self.start = start
        self.unit = unit
        self.description = description

    def __repr__(self):
        return "ScalarVariable(%r, vr=%d, %s, %s, %s, start=%r)" % (
            self.name, self.value_reference, self.type, self.causality,
            self.variability, self.start)


class ModelDescription:
    """The parts of ``modelDescription.xml`` a Co-Simulation master needs."""

    def __init__(self):
        self.fmi_version = None
        self.model_name = None
        self.guid = None
        self.model_identifier = None  # of the <CoSimulation> element
        self.can_interpolate_inputs = False
        self.can_handle_variable_step = False
        self.can_get_and_set_fmu_state = False
        self.needs_execution_tool = False
        self.default_experiment = {}  # startTime, stopTime, tolerance, stepSize
        self.variables = {}  # name -> ScalarVariable
        self.log_categories = []

    def vr(self, name):
        """Value reference of the variable called ``name`` (KeyError if unknown)."""
        try:
            return self.variables[name].value_reference
        except KeyError:
            raise KeyError("no variable %r in model description of %s" % (name, self.model_name)) from None

    def vrs(self, names):
        return [self.vr(n) for n in names]

    def by_causality(self, causality):
        return [v for v in self.variables.values() if v.causality == causality]


def _bool_attr(elem, name):
    return elem is not None and elem.get(name, "false").strip().lower() == "true"


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
    md.model_name = root.get("modelName")
    md.guid = root.get("guid")
    cs = root.find("CoSimulation")
    if cs is None:
        raise ValueError("%s: the FMU does not support Co-Simulation" % path)
    md.model_identifier = cs.get("modelIdentifier")
    md.can_interpolate_inputs = _bool_attr(cs, "canInterpolateInputs")
    md.can_handle_variable_step = _bool_attr(cs, "canHandleVariableCommunicationStepSize")
    md.can_get_and_set_fmu_state = _bool_attr(cs, "canGetAndSetFMUstate")
    md.needs_execution_tool = _bool_attr(cs, "needsExecutionTool")
    de = root.find("DefaultExperiment")
    if de is not None:
        for key in ("startTime", "stopTime", "tolerance", "stepSize"):
            if de.get(key) is not None:
                md.default_experiment[key] = float(de.get(key))
    lc = root.find("LogCategories")
    if lc is not None:
        md.log_categories = [c.get("name") for c in lc.findall("Category")]
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
    lib.fmi2_missing = missing
    return lib


def load_library(path):
    """Load an FMU binary once per process and declare all fmi2* signatures.

    Returns the shared :class:`ctypes.CDLL`; its attribute ``fmi2_missing``
    lists the FMI 2.0 functions the binary does not export.  See the module
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


# libc's calloc/free serve as allocateMemory/freeMemory: no Python code runs
# (and no GIL is needed) when the FMU allocates.
_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
_CALLOC = fmi2CallbackAllocateMemory(ctypes.cast(_libc.calloc, ctypes.c_void_p).value)
_FREE = fmi2CallbackFreeMemory(ctypes.cast(_libc.free, ctypes.c_void_p).value)


def _decode(b):
    if b is None:
        return ""
    return b.decode("utf-8", "replace")


# --------------------------------------------------------------------------
# The slave
# --------------------------------------------------------------------------

_env_counter = [0]
_env_lock = threading.Lock()


class FMU2Slave:
    """One FMI 2.0 Co-Simulation instance of an unpacked FMU.

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
        self.component = None
        self.library_path = binary_path(self.unzipped_dir, self.md.model_identifier)
        self.lib = load_library(self.library_path)
        if self.lib.fmi2_missing:
            raise FMIError("load", None, detail="%s does not export %s" % (
                self.library_path, ", ".join(self.lib.fmi2_missing)))
        with _env_lock:
            _env_counter[0] += 1
            self._env_id = _env_counter[0]
        self._mark = 0
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
        entry = (int(status), _decode(category), text)
        self.messages.append(entry)
        if self.echo:
            print("[%s] %s %s: %s" % (STATUS_NAMES.get(entry[0], entry[0]),
                                      _decode(instance_name), entry[1], text), flush=True)

    def _on_step_finished(self, env, status):
        self.messages.append((int(status), "stepFinished", "asynchronous step finished"))

    # -- helpers -------------------------------------------------------------

    def _refs(self, refs):
        if isinstance(refs, (str, int)):
            refs = [refs]
        out = []
        for r in refs:
            out.append(self.md.vr(r) if isinstance(r, str) else int(r))
        return (fmi2ValueReference * len(out))(*out), len(out)

    def _check(self, name, status, detail=""):
        """Raise FMIError unless status is fmi2OK or fmi2Warning.

        The exception carries the messages logged during this call (those
        after the mark set by _need_component).
        """
        if status not in (OK, WARNING):
            raise FMIError(name, status, self.messages[self._mark:], detail)
        return status

    def _need_component(self, name):
        """Fail unless instantiated; mark where this call's messages start."""
        if not self.component:
            raise FMIError(name, None, (), "the instance is not instantiated")
        self._mark = len(self.messages)

    def call(self, name, *args):
        """Call ``name`` with the component as first argument; return the raw status."""
        self._need_component(name)
        return getattr(self.lib, name)(self.component, *args)

    def vr(self, name):
        return self.md.vr(name)

    def clear_messages(self):
        self.messages = []

    # -- lifecycle -----------------------------------------------------------

    def instantiate(self, visible=False, logging_on=False, resource_location=None, guid=None,
                    fmu_type=CO_SIMULATION):
        """fmi2Instantiate; raises FMIError (status None) when it returns NULL."""
        if self.component:
            raise FMIError("fmi2Instantiate", None, (), "already instantiated")
        self._mark = len(self.messages)
        if resource_location is None:
            resource_location = resource_uri(self.unzipped_dir)
        comp = self.lib.fmi2Instantiate(
            self.instance_name.encode(), fmu_type,
            (self.md.guid if guid is None else guid).encode(),
            resource_location.encode() if resource_location else None,
            ctypes.byref(self._callbacks),
            fmi2True if visible else fmi2False,
            fmi2True if logging_on else fmi2False)
        if not comp:
            raise FMIError("fmi2Instantiate", None, self.messages[self._mark:], "returned NULL")
        self.component = comp
        return self

    def set_debug_logging(self, on=True, categories=()):
        self._need_component("fmi2SetDebugLogging")
        arr = (fmi2String * len(categories))(*[c.encode() for c in categories])
        return self._check("fmi2SetDebugLogging", self.lib.fmi2SetDebugLogging(
            self.component, fmi2True if on else fmi2False, len(categories), arr))

    def setup_experiment(self, start_time=0.0, stop_time=None, tolerance=None):
        self._need_component("fmi2SetupExperiment")
        return self._check("fmi2SetupExperiment", self.lib.fmi2SetupExperiment(
            self.component,
            fmi2False if tolerance is None else fmi2True, 0.0 if tolerance is None else tolerance,
            start_time,
            fmi2False if stop_time is None else fmi2True, 0.0 if stop_time is None else stop_time))

    def enter_initialization_mode(self):
        self._need_component("fmi2EnterInitializationMode")
        return self._check("fmi2EnterInitializationMode", self.lib.fmi2EnterInitializationMode(self.component))

    def exit_initialization_mode(self):
        self._need_component("fmi2ExitInitializationMode")
        return self._check("fmi2ExitInitializationMode", self.lib.fmi2ExitInitializationMode(self.component))

    def initialize(self, start_time=0.0, stop_time=None, parameters=None):
        """setup_experiment + set ``parameters`` (dict name -> value) + enter/exit initialization."""
        self.setup_experiment(start_time=start_time, stop_time=stop_time)
        if parameters:
            self.set_real(list(parameters), list(parameters.values()))
        self.enter_initialization_mode()
        self.exit_initialization_mode()
        return self

    def terminate(self):
        self._need_component("fmi2Terminate")
        return self._check("fmi2Terminate", self.lib.fmi2Terminate(self.component))

    def reset(self):
        self._need_component("fmi2Reset")
        return self._check("fmi2Reset", self.lib.fmi2Reset(self.component))

    def free(self):
        """fmi2FreeInstance (no-op when not instantiated)."""
        if self.component:
            comp, self.component = self.component, None
            self.lib.fmi2FreeInstance(comp)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()
        return False

    # -- values --------------------------------------------------------------

    def set_real(self, refs, values):
        self._need_component("fmi2SetReal")
        vrs, n = self._refs(refs)
        values = list(values) if not isinstance(values, (int, float)) else [values]
        if len(values) != n:
            raise ValueError("set_real: %d references but %d values" % (n, len(values)))
        vals = (fmi2Real * n)(*values)
        return self._check("fmi2SetReal", self.lib.fmi2SetReal(self.component, vrs, n, vals))

    def get_real(self, refs):
        self._need_component("fmi2GetReal")
        vrs, n = self._refs(refs)
        vals = (fmi2Real * n)()
        self._check("fmi2GetReal", self.lib.fmi2GetReal(self.component, vrs, n, vals))
        return list(vals)

    def set_real_input_derivatives(self, refs, orders, values):
        self._need_component("fmi2SetRealInputDerivatives")
        vrs, n = self._refs(refs)
        if isinstance(orders, int):
            orders = [orders] * n
        if len(orders) != n or len(values) != n:
            raise ValueError("set_real_input_derivatives: lengths differ")
        ords = (fmi2Integer * n)(*orders)
        vals = (fmi2Real * n)(*values)
        return self._check("fmi2SetRealInputDerivatives",
                           self.lib.fmi2SetRealInputDerivatives(self.component, vrs, n, ords, vals))

    def get_real_output_derivatives(self, refs, orders):
        self._need_component("fmi2GetRealOutputDerivatives")
        vrs, n = self._refs(refs)
        if isinstance(orders, int):
            orders = [orders] * n
        ords = (fmi2Integer * n)(*orders)
        vals = (fmi2Real * n)()
        self._check("fmi2GetRealOutputDerivatives",
                    self.lib.fmi2GetRealOutputDerivatives(self.component, vrs, n, ords, vals))
        return list(vals)

    # -- stepping ------------------------------------------------------------

    def get_fmu_state(self, state=None):
        """Saves the FMU state; returns a handle (pass one back to update it)."""
        self._need_component("fmi2GetFMUstate")
        handle = fmi2FMUstate(state)
        self._check("fmi2GetFMUstate", self.lib.fmi2GetFMUstate(self.component, ctypes.byref(handle)))
        return handle.value

    def set_fmu_state(self, state):
        self._need_component("fmi2SetFMUstate")
        return self._check("fmi2SetFMUstate", self.lib.fmi2SetFMUstate(self.component, state))

    def free_fmu_state(self, state):
        self._need_component("fmi2FreeFMUstate")
        handle = fmi2FMUstate(state)
        return self._check("fmi2FreeFMUstate", self.lib.fmi2FreeFMUstate(self.component, ctypes.byref(handle)))

    def serialize_fmu_state(self, state):
        """Returns the state as bytes."""
        self._need_component("fmi2SerializeFMUstate")
        size = ctypes.c_size_t()
        self._check("fmi2SerializedFMUstateSize",
                    self.lib.fmi2SerializedFMUstateSize(self.component, state, ctypes.byref(size)))
        buf = (fmi2Byte * size.value)()
        self._check("fmi2SerializeFMUstate", self.lib.fmi2SerializeFMUstate(self.component, state, buf, size))
        return bytes(ctypes.cast(buf, ctypes.POINTER(ctypes.c_char * size.value)).contents)

    def deserialize_fmu_state(self, data):
        """Returns a state handle read from bytes."""
        self._need_component("fmi2DeSerializeFMUstate")
        buf = (fmi2Byte * len(data)).from_buffer_copy(data)
        handle = fmi2FMUstate()
        self._check("fmi2DeSerializeFMUstate",
                    self.lib.fmi2DeSerializeFMUstate(self.component, buf, len(data), ctypes.byref(handle)))
        return handle.value

    def do_step(self, current_time, step_size, no_set_fmu_state_prior=True):
        self._need_component("fmi2DoStep")
        status = self.lib.fmi2DoStep(self.component, current_time, step_size,
                                     fmi2True if no_set_fmu_state_prior else fmi2False)
        return self._check("fmi2DoStep", status, "t=%.17g, h=%.17g" % (current_time, step_size))

    def get_status(self, kind=DO_STEP_STATUS):
        self._need_component("fmi2GetStatus")
        value = fmi2Status(0)
        self._check("fmi2GetStatus", self.lib.fmi2GetStatus(self.component, kind, ctypes.byref(value)))
        return value.value

    def get_real_status(self, kind=LAST_SUCCESSFUL_TIME):
        self._need_component("fmi2GetRealStatus")
        value = fmi2Real(0.0)
        self._check("fmi2GetRealStatus", self.lib.fmi2GetRealStatus(self.component, kind, ctypes.byref(value)))
        return value.value

    # -- information ---------------------------------------------------------

    def version(self):
        return _decode(self.lib.fmi2GetVersion())

    def types_platform(self):
        return _decode(self.lib.fmi2GetTypesPlatform())


def all_finite(values):
    """True when no value is NaN or infinite."""
    return all(math.isfinite(v) for v in values)
