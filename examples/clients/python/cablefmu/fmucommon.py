"""Pieces of the ctypes bindings that do not depend on the FMI version
(standard library only).

:mod:`fmi2` and :mod:`fmi3` build on this module: unpacking an FMU into a
reusable folder, reading the parts of ``modelDescription.xml`` both
versions share, loading a binary once per process, the exception raised by
failed calls and the bookkeeping of an instance (logged messages, status
checks, the C handle).  Use those modules; this one has no FMI functions of
its own.

Loading the shared library
--------------------------
An FMU binary built from Go (cgo, ``-buildmode=c-shared``) contains a complete
Go runtime.  Every time a copy of the binary is loaded from a *new* path, a
further Go runtime starts inside the calling process (about 5 threads and
5 MB), and it is never unloaded: such libraries are linked so that
``dlclose`` does nothing.  Therefore unpack an FMU once, reuse the folder
(:func:`unzip` does so when the archive has not changed) and create all
instances from the same folder: the bindings load each binary path only once
per process and shares the handle between instances (:class:`LibraryCache`,
one per binding).
"""

import ctypes
import hashlib
import os
import shutil
import tempfile
import threading
import xml.etree.ElementTree as ET
import zipfile

# The first two values of fmi2Status and fmi3Status.
OK, WARNING = 0, 1

#: The names of the statuses both versions have, in enum order; FMI 2.0
#: adds "Pending".
STATUS_WORDS = ("OK", "Warning", "Discard", "Error", "Fatal")


def status_names(prefix, words=STATUS_WORDS):
    """``{status: name}`` for the enum values 0, 1, ... named ``prefix + word``."""
    return {i: prefix + word for i, word in enumerate(words)}


def decode(b):
    """Text of a C string (``""`` for NULL)."""
    if b is None:
        return ""
    return b.decode("utf-8", "replace")


# --------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------

class FMIError(Exception):
    """A failed FMI call (the base of ``fmi2.FMIError`` and ``fmi3.FMIError``).

    Attributes: ``function`` (C function name), ``status`` (the status as
    int, or None when the call returned NULL or was not made) and
    ``messages`` (list of ``(status, category, text)`` tuples the FMU logged
    during the failed call).  The text shows the non-OK messages of the
    call.  A subclass names the statuses in ``STATUS_NAMES``.
    """

    STATUS_NAMES = {}

    def __init__(self, function, status, messages=(), detail=""):
        self.function = function
        self.status = status
        self.messages = list(messages)
        if status is None:
            head = "%s failed" % function
        else:
            head = "%s returned %s" % (function, self.STATUS_NAMES.get(status, str(status)))
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

class VariableBase:
    """The attributes every model variable has, in both versions."""

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


class ModelDescriptionBase:
    """The attributes and look-ups both versions' model descriptions have."""

    def __init__(self):
        self.fmi_version = None
        self.model_name = None
        self.model_identifier = None  # of the <CoSimulation> element
        self.can_handle_variable_step = False
        self.can_get_and_set_fmu_state = False
        self.needs_execution_tool = False
        self.default_experiment = {}  # startTime, stopTime, tolerance, stepSize
        self.log_categories = []

    def vrs(self, names):
        return [self.vr(n) for n in names]

    def by_causality(self, causality):
        return [v for v in self.variables.values() if v.causality == causality]


def bool_attr(elem, name, true_words=("true",)):
    """An xs:boolean attribute of ``elem`` (False when missing); ``true_words`` are the spellings of true."""
    return elem is not None and elem.get(name, "false").strip().lower() in true_words


def read_root(path):
    """``(path, root element)`` of ``modelDescription.xml`` given as the file, an unpacked FMU folder or an .fmu."""
    if os.path.isdir(path):
        path = os.path.join(path, "modelDescription.xml")
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            root = ET.fromstring(zf.read("modelDescription.xml"))
    else:
        root = ET.parse(path).getroot()
    if root.tag != "fmiModelDescription":
        raise ValueError("%s: root element is <%s>, expected <fmiModelDescription>" % (path, root.tag))
    return path, root


def read_co_simulation(path, root, md, true_words=("true",)):
    """Fill ``md.model_identifier`` and the flags both versions share from
    ``<CoSimulation>``; returns that element (ValueError when missing)."""
    cs = root.find("CoSimulation")
    if cs is None:
        raise ValueError("%s: the FMU does not support Co-Simulation" % path)
    md.model_identifier = cs.get("modelIdentifier")
    md.can_handle_variable_step = bool_attr(cs, "canHandleVariableCommunicationStepSize", true_words)
    md.needs_execution_tool = bool_attr(cs, "needsExecutionTool", true_words)
    return cs


def read_experiment_and_categories(root, md):
    """Fill ``md.default_experiment`` and ``md.log_categories``."""
    de = root.find("DefaultExperiment")
    if de is not None:
        for key in ("startTime", "stopTime", "tolerance", "stepSize"):
            if de.get(key) is not None:
                md.default_experiment[key] = float(de.get(key))
    lc = root.find("LogCategories")
    if lc is not None:
        md.log_categories = [c.get("name") for c in lc.findall("Category")]


# --------------------------------------------------------------------------
# Unpacking
# --------------------------------------------------------------------------

# STAMP names the file in an unpacked folder that holds its archive's
# SHA-256 (unzip); a cache reads its time as the folder's last use.
STAMP = ".fmu-sha256"


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def unzip(fmu_path, dest, digest=None, marker="modelDescription.xml"):
    """Unpack ``fmu_path`` into the folder ``dest`` and return its absolute path.

    The folder is reused: when it already holds this very archive (same
    SHA-256, recorded in ``dest/.fmu-sha256``, and its ``marker`` file:
    an FMU's model description, an SSP's SystemStructure.ssd) nothing is
    written.  Otherwise
    every file is written to a temporary name and renamed into place, so a
    binary still mapped by a running process is never overwritten in place.
    Member names that would escape ``dest`` are rejected.  ``digest``: the
    archive's SHA-256 (hex) when the caller has just computed it.
    """
    dest = os.path.abspath(dest)
    digest = digest or _sha256(fmu_path)
    stamp = os.path.join(dest, STAMP)
    try:
        with open(stamp) as f:
            if f.read().strip() == digest and os.path.isfile(os.path.join(dest, marker)):
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


# --------------------------------------------------------------------------
# Loading the binary
# --------------------------------------------------------------------------

class LibraryCache:
    """Loads each FMU binary once per process and declares its functions.

    ``signatures`` maps function names to ``(restype, argtypes)``; the names
    a binary does not export are listed in the library's attribute
    ``missing_attr``.  Each binding keeps its own cache.
    """

    def __init__(self, signatures, missing_attr):
        self.signatures = signatures
        self.missing_attr = missing_attr
        self._libs = {}
        self._lock = threading.Lock()

    def _declare(self, lib):
        missing = []
        for name, (restype, argtypes) in self.signatures.items():
            try:
                fn = getattr(lib, name)
            except AttributeError:
                missing.append(name)
                continue
            fn.restype = restype
            fn.argtypes = argtypes
        setattr(lib, self.missing_attr, missing)
        return lib

    def load(self, path):
        """The shared :class:`ctypes.CDLL` of ``path`` (loaded on first use)."""
        key = os.path.realpath(path)
        with self._lock:
            lib = self._libs.get(key)
            if lib is None:
                lib = self._declare(ctypes.CDLL(key, mode=ctypes.RTLD_LOCAL))
                self._libs[key] = lib
            return lib

    def release(self, path):
        """Forget the cached handle of ``path`` and ``dlclose`` it once.

        For Go binaries ``dlclose`` is a no-op; the next :meth:`load` of the
        same path gets the same, still initialised library back.
        """
        import _ctypes

        key = os.path.realpath(path)
        with self._lock:
            lib = self._libs.pop(key, None)
        if lib is not None:
            _ctypes.dlclose(lib._handle)


class Counter:
    """Thread-safe 1, 2, 3, ... (the instance environments of a binding)."""

    def __init__(self):
        self._n = 0
        self._lock = threading.Lock()

    def next(self):
        with self._lock:
            self._n += 1
            return self._n


# --------------------------------------------------------------------------
# The instance
# --------------------------------------------------------------------------

def plain_call(name):
    """A :class:`SlaveBase` method calling ``name(handle)`` and checking its status."""

    def method(self):
        return self._call_checked(name)

    method.__doc__ = "%s; raises FMIError unless it returns OK or Warning." % name
    return method


class SlaveBase:
    """Bookkeeping shared by ``fmi2.FMU2Slave`` and ``fmi3.FMU3Slave``.

    Such an instance is made from ``unzipped_dir``, a folder produced by
    :func:`unzip`.  Variables can be given by name or by value reference
    wherever a list of references is expected.  Messages logged by the FMU
    for this instance are appended to ``self.messages`` as ``(status,
    category, text)``; set ``echo=True`` to also print them.

    A subclass sets ``ERROR`` (its FMIError class, which names the
    statuses), ``HANDLE`` (the attribute holding the C instance pointer, None
    while not instantiated) and the names of the C functions ``FREE`` (frees
    the instance), ``GET_STATE`` and ``SET_STATE`` (get and set the FMU state).
    """

    ERROR = FMIError
    HANDLE = "component"
    FREE = GET_STATE = SET_STATE = None

    @property
    def STATUS_NAMES(self):
        return self.ERROR.STATUS_NAMES

    def _open(self, unzipped_dir, instance_name, echo, model_description, read_model_description, binary_path):
        """Set the attributes every instance has; ``library_path`` is the binary's (not loaded yet)."""
        self.unzipped_dir = os.path.abspath(unzipped_dir)
        self.md = model_description or read_model_description(self.unzipped_dir)
        self.instance_name = instance_name
        self.echo = echo
        self.messages = []
        setattr(self, self.HANDLE, None)
        self._mark = 0
        self.library_path = binary_path(self.unzipped_dir, self.md.model_identifier)

    def _handle(self):
        return getattr(self, self.HANDLE)

    def _record(self, status, category, text, instance_name):
        """Keep one logged message (and print it when ``echo`` is set)."""
        entry = (int(status), category, text)
        self.messages.append(entry)
        if self.echo:
            print("[%s] %s %s: %s" % (self.STATUS_NAMES.get(entry[0], entry[0]),
                                      instance_name, category, text), flush=True)

    def _value_references(self, refs):
        """The value references of names or numbers (one or a list)."""
        if isinstance(refs, (str, int)):
            refs = [refs]
        return [self.md.vr(r) if isinstance(r, str) else int(r) for r in refs]

    def _check(self, name, status, detail=""):
        """Raise FMIError unless status is OK or Warning.

        The exception carries the messages logged during this call (those
        after the mark set by _need).
        """
        if status not in (OK, WARNING):
            raise self.ERROR(name, status, self.messages[self._mark:], detail)
        return status

    def _need(self, name):
        """Fail unless instantiated; mark where this call's messages start."""
        if not getattr(self, self.HANDLE):
            raise self.ERROR(name, None, (), "the instance is not instantiated")
        self._mark = len(self.messages)

    def _begin_instantiate(self, name):
        """Fail when already instantiated; mark where this call's messages start."""
        if self._handle():
            raise self.ERROR(name, None, (), "already instantiated")
        self._mark = len(self.messages)

    def _end_instantiate(self, name, handle):
        """Keep the handle an instantiate function returned (FMIError for NULL)."""
        if not handle:
            raise self.ERROR(name, None, self.messages[self._mark:], "returned NULL")
        setattr(self, self.HANDLE, handle)
        return self

    def _call_checked(self, name, *args):
        """Call ``name`` with the handle first and check its status."""
        self._need(name)
        return self._check(name, getattr(self.lib, name)(self._handle(), *args))

    def _repeated(self, name, *args):
        """A function calling ``name(handle, *args)`` and checking its
        status, as :meth:`_call_checked` does, for a call made every step:
        the C function and its arguments (ctypes arrays, refilled between
        calls) are looked up and built once, and no text is made unless the
        call fails."""
        fn = getattr(self.lib, name)
        error, handle_attr = self.ERROR, self.HANDLE

        def call():
            handle = getattr(self, handle_attr)  # None once freed
            if not handle:
                raise error(name, None, (), "the instance is not instantiated")
            mark = self._mark = len(self.messages)
            status = fn(handle, *args)
            if status != OK and status != WARNING:
                raise error(name, status, self.messages[mark:])
            return status

        return call

    def call(self, name, *args):
        """Call ``name`` with the instance as first argument; return the raw status."""
        self._need(name)
        return getattr(self.lib, name)(self._handle(), *args)

    # -- values of any type --------------------------------------------------
    # Counts are Integer (Int32 in FMI 3.0) and switches Boolean: these
    # read every variable as a number (False 0, True 1) and write numbers
    # into every type, calling the function of each variable's type.

    def _by_type(self, names):
        """{type name: ([names], [their positions])} in the order given."""
        groups = {}
        for k, name in enumerate(names):
            var = self.md.variables[name] if isinstance(name, str) else None
            type_ = var.type if var is not None else None
            if type_ not in self._GETTERS:
                type_ = next(iter(self._GETTERS))  # the floating-point type
            g = groups.setdefault(type_, ([], []))
            g[0].append(name)
            g[1].append(k)
        return groups

    def _size(self, name):
        """How many values the variable ``name`` has (an FMI 3.0 array more than one)."""
        return 1

    def get_values(self, names):
        """The values of ``names`` as floats, whatever their types, flat and in order (an
        array's elements in row-major order)."""
        chunks = [None] * len(names)
        for type_, (group, where) in self._by_type(names).items():
            flat, at = getattr(self, self._GETTERS[type_])(group), 0
            for name, k in zip(group, where):
                n = self._size(name)
                chunks[k] = [float(v) for v in flat[at:at + n]]
                at += n
        return [x for c in chunks for x in c]

    def set_values(self, names, values):
        """Sets ``names`` to the numbers ``values`` (flat, in order), whatever their types."""
        values, chunks, at = list(values), [], 0
        for name in names:
            n = self._size(name)
            chunks.append(values[at:at + n])
            at += n
        if at != len(values):
            raise ValueError("set_values: %d values for variables with %d" % (len(values), at))
        for type_, (group, where) in self._by_type(names).items():
            getattr(self, self._SETTERS[type_])(group, [x for k in where for x in chunks[k]])

    def values_getter(self, names):
        """A function ``get()`` returning ``get_values(names)``; Real and
        Float64 variables through a getter whose arrays are built once."""
        groups = self._by_type(names)
        floating = next(iter(self._GETTERS))
        if list(groups) == [floating]:
            return self.real_getter(names) if floating == "Real" else self.float64_getter(names)
        return lambda: self.get_values(names)

    def values_setter(self, names):
        """A function ``set(values)`` doing ``set_values(names, values)``."""
        groups = self._by_type(names)
        floating = next(iter(self._SETTERS))
        if list(groups) == [floating]:
            return self.real_setter(names) if floating == "Real" else self.float64_setter(names)
        return lambda values: self.set_values(names, values)

    def vr(self, name):
        return self.md.vr(name)

    def clear_messages(self):
        self.messages = []

    def free(self):
        """Free the instance (no-op when not instantiated)."""
        handle = self._handle()
        if handle:
            setattr(self, self.HANDLE, None)
            getattr(self.lib, self.FREE)(handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free()
        return False

    # -- FMU state -----------------------------------------------------------

    def get_fmu_state(self, state=None):
        """Saves the FMU state; returns a handle (pass one back to update it)."""
        return self._state_out(self.GET_STATE, state)

    def set_fmu_state(self, state):
        return self._call_checked(self.SET_STATE, state)

    def state_keeper(self):
        """Functions ``save()`` and ``restore()`` of one FMU state kept for the instance (get_fmu_state into the
        same handle, set_fmu_state from it), their arguments built once: for a master that saves and restores the
        state every communication step. The state is freed with the instance."""
        handle = ctypes.c_void_p()
        save, restore = self._repeated(self.GET_STATE, ctypes.byref(handle)), self._repeated(self.SET_STATE, handle)
        return save, restore

    def _state_out(self, name, state=None):
        """Call ``name(handle, &state)`` and return the state it leaves."""
        handle = ctypes.c_void_p(state)
        self._call_checked(name, ctypes.byref(handle))
        return handle.value

    def _state_size(self, name, state):
        size = ctypes.c_size_t()
        self._call_checked(name, state, ctypes.byref(size))
        return size.value

    def _deserialize(self, name, byte_type, data):
        buf = (byte_type * len(data)).from_buffer_copy(data)
        handle = ctypes.c_void_p()
        self._call_checked(name, buf, len(data), ctypes.byref(handle))
        return handle.value
