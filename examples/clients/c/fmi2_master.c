/*
 * Minimal FMI 2.0 Co-Simulation master for the Hoist FMUs (Linux and Windows x86-64)
 * ==================================================================================
 *
 * Build and run on Linux:
 *
 *     gcc -O2 -o out/fmi2_master examples/clients/c/fmi2_master.c -ldl -lpthread -lm
 *     python3 -m zipfile -e out/Hoist.fmu out/Hoist_fmu     # unpack once
 *     out/fmi2_master out/Hoist_fmu
 *
 * and for Windows (run it there, or under Wine):
 *
 *     x86_64-w64-mingw32-gcc -O2 -o out/fmi2_master.exe examples/clients/c/fmi2_master.c
 *
 * The argument is the folder of an unpacked FMU (Hoist, RigidHoist or any
 * FMU with the Hoist ports); an optional second argument sets the simulated
 * time, default 10 s; "--trace FILE" adds a trolley move, below.  The master
 *
 *   1. reads the GUID, the modelIdentifier, the value references and the
 *      start values of load.mass and gravity from
 *      <folder>/modelDescription.xml with a plain string scan (no XML
 *      library);
 *   2. loads <folder>/binaries/<platform>/<modelIdentifier>.so (or .dll)
 *      and looks up all 44 fmi2* functions of FMI 2.0 (it fails and names
 *      every function that is missing);
 *   3. checks that a wrong GUID is refused with a message; instantiates, initializes and steps 10 s with a communication step of
 *      0.01 s while holding the suspension point still at (0, 0, 20) m;
 *   4. prints the cable tension and the height of the load and checks that
 *      the tension is within 0.5 % of load.mass * gravity (the defaults are
 *      1000 kg and 9.81 m/s^2 when the description gives no start value);
 *   5. frees the instance, unloads the library, loads it again,
 *      instantiates once more, steps 1 s and checks that a zero step size is
 *      refused with fmi2Error and a message through the variadic logger;
 *   6. runs two instances at once on two threads for 2 s and checks that
 *      both give the same tension;
 *   7. with --trace FILE: moves the trolley 4 m in 30 s (a smooth S-curve,
 *      its speed as suspension.vx) and writes time, cable.tension, load.x,
 *      load.z, suspension.fx and suspension.fz after every step to FILE (CSV, 17
 *      digits), so that runs on two platforms can be compared.
 *
 * It exits with 0 only if every step above passed.  The FMI 2.0 types are
 * declared below; the standard's headers are not needed.
 *
 * Note: an FMU binary built from Go cannot be unloaded.  dlclose and
 * FreeLibrary are then no-ops and the second load returns the same, still
 * running library.
 */

#define _GNU_SOURCE
#include <math.h> /* isfinite and cos */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

/* ---- FMI 2.0 types ------------------------------------------------------ */

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;

#define fmi2True 1
#define fmi2False 0

typedef enum {
    fmi2OK,
    fmi2Warning,
    fmi2Discard,
    fmi2Error,
    fmi2Fatal,
    fmi2Pending
} fmi2Status;

typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;

typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String,
                                   fmi2String, ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t, size_t);
typedef void (*fmi2CallbackFreeMemory)(void *);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment, fmi2Status);

typedef struct {
    fmi2CallbackLogger logger;
    fmi2CallbackAllocateMemory allocateMemory;
    fmi2CallbackFreeMemory freeMemory;
    fmi2StepFinished stepFinished;
    fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

/* The functions this master calls. */
typedef fmi2Component (*fmi2InstantiateTYPE)(fmi2String, fmi2Type, fmi2String, fmi2String,
                                             const fmi2CallbackFunctions *, fmi2Boolean, fmi2Boolean);
typedef void (*fmi2FreeInstanceTYPE)(fmi2Component);
typedef fmi2Status (*fmi2SetupExperimentTYPE)(fmi2Component, fmi2Boolean, fmi2Real, fmi2Real,
                                              fmi2Boolean, fmi2Real);
typedef fmi2Status (*fmi2ComponentFunctionTYPE)(fmi2Component);
typedef fmi2Status (*fmi2GetRealTYPE)(fmi2Component, const fmi2ValueReference[], size_t, fmi2Real[]);
typedef fmi2Status (*fmi2SetRealTYPE)(fmi2Component, const fmi2ValueReference[], size_t,
                                      const fmi2Real[]);
typedef fmi2Status (*fmi2DoStepTYPE)(fmi2Component, fmi2Real, fmi2Real, fmi2Boolean);
typedef const char *(*fmi2GetVersionTYPE)(void);

/* All 44 functions of FMI 2.0. */
static const char *const fmi2FunctionNames[] = {
    /* common */
    "fmi2GetTypesPlatform", "fmi2GetVersion", "fmi2SetDebugLogging", "fmi2Instantiate",
    "fmi2FreeInstance", "fmi2SetupExperiment", "fmi2EnterInitializationMode",
    "fmi2ExitInitializationMode", "fmi2Terminate", "fmi2Reset", "fmi2GetReal", "fmi2GetInteger",
    "fmi2GetBoolean", "fmi2GetString", "fmi2SetReal", "fmi2SetInteger", "fmi2SetBoolean",
    "fmi2SetString", "fmi2GetFMUstate", "fmi2SetFMUstate", "fmi2FreeFMUstate",
    "fmi2SerializedFMUstateSize", "fmi2SerializeFMUstate", "fmi2DeSerializeFMUstate",
    "fmi2GetDirectionalDerivative",
    /* Model Exchange */
    "fmi2EnterEventMode", "fmi2NewDiscreteStates", "fmi2EnterContinuousTimeMode",
    "fmi2CompletedIntegratorStep", "fmi2SetTime", "fmi2SetContinuousStates", "fmi2GetDerivatives",
    "fmi2GetEventIndicators", "fmi2GetContinuousStates", "fmi2GetNominalsOfContinuousStates",
    /* Co-Simulation */
    "fmi2SetRealInputDerivatives", "fmi2GetRealOutputDerivatives", "fmi2DoStep", "fmi2CancelStep",
    "fmi2GetStatus", "fmi2GetRealStatus", "fmi2GetIntegerStatus", "fmi2GetBooleanStatus",
    "fmi2GetStringStatus",
};
#define N_FUNCTIONS ((int)(sizeof fmi2FunctionNames / sizeof fmi2FunctionNames[0]))

typedef struct {
    Library handle;
    void *sym[N_FUNCTIONS];
    fmi2GetVersionTYPE getVersion;
    fmi2InstantiateTYPE instantiate;
    fmi2FreeInstanceTYPE freeInstance;
    fmi2SetupExperimentTYPE setupExperiment;
    fmi2ComponentFunctionTYPE enterInitializationMode;
    fmi2ComponentFunctionTYPE exitInitializationMode;
    fmi2ComponentFunctionTYPE terminate;
    fmi2GetRealTYPE getReal;
    fmi2SetRealTYPE setReal;
    fmi2DoStepTYPE doStep;
} Binary;

/* ---- callbacks ---------------------------------------------------------- */

static int nMessages = 0;

static const char *statusName(fmi2Status s) {
    switch (s) {
    case fmi2OK: return "OK";
    case fmi2Warning: return "Warning";
    case fmi2Discard: return "Discard";
    case fmi2Error: return "Error";
    case fmi2Fatal: return "Fatal";
    case fmi2Pending: return "Pending";
    }
    return "?";
}

static void logger(fmi2ComponentEnvironment env, fmi2String instanceName, fmi2Status status,
                   fmi2String category, fmi2String message, ...) {
    char text[4096];
    va_list ap;
    (void)env;
    va_start(ap, message);
    vsnprintf(text, sizeof text, message ? message : "", ap);
    va_end(ap);
    countUp(&nMessages);
    printf("  log [%s] %s %s: %s\n", statusName(status), instanceName ? instanceName : "?",
           category ? category : "", text);
    fflush(stdout);
}

static void stepFinished(fmi2ComponentEnvironment env, fmi2Status status) {
    (void)env;
    (void)status;
}

/* ---- loading ------------------------------------------------------------ */

static int findIndex(const char *name) {
    for (int i = 0; i < N_FUNCTIONS; i++)
        if (strcmp(fmi2FunctionNames[i], name) == 0) return i;
    return -1;
}

/* Converts the object pointer of a looked-up symbol to a function pointer. */
#define BIND(b, field, name)                                                                       \
    do {                                                                                           \
        void *p_ = (b)->sym[findIndex(name)];                                                      \
        memcpy(&(b)->field, &p_, sizeof p_);                                                       \
    } while (0)

static int loadBinary(Binary *b, const char *path) {
    memset(b, 0, sizeof *b);
    b->handle = libraryOpen(path);
    if (!b->handle) {
        fprintf(stderr, "FAIL: loading %s: %s\n", path, libraryError());
        return 0;
    }
    int missing = 0;
    for (int i = 0; i < N_FUNCTIONS; i++) {
        b->sym[i] = librarySymbol(b->handle, fmi2FunctionNames[i]);
        if (!b->sym[i]) {
            fprintf(stderr, "FAIL: %s does not export %s\n", path, fmi2FunctionNames[i]);
            missing++;
        }
    }
    if (missing) {
        fprintf(stderr, "FAIL: %d of %d FMI 2.0 functions missing\n", missing, N_FUNCTIONS);
        libraryClose(b->handle);
        b->handle = NULL;
        return 0;
    }
    BIND(b, getVersion, "fmi2GetVersion");
    BIND(b, instantiate, "fmi2Instantiate");
    BIND(b, freeInstance, "fmi2FreeInstance");
    BIND(b, setupExperiment, "fmi2SetupExperiment");
    BIND(b, enterInitializationMode, "fmi2EnterInitializationMode");
    BIND(b, exitInitializationMode, "fmi2ExitInitializationMode");
    BIND(b, terminate, "fmi2Terminate");
    BIND(b, getReal, "fmi2GetReal");
    BIND(b, setReal, "fmi2SetReal");
    BIND(b, doStep, "fmi2DoStep");
    printf("loaded %s: all %d functions found, fmi2GetVersion() = %s\n", path, N_FUNCTIONS,
           b->getVersion());
    return 1;
}

/* ---- modelDescription.xml scan ------------------------------------------ */

static char *readFile(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
    long n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) { fclose(f); return NULL; }
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    if (buf) buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Copies the value of attribute `attr` found in [from, to) into out.  The
 * attribute name must be preceded by white space so that name="" does not
 * match modelName="". */
static int attribute(const char *from, const char *to, const char *attr, char *out, size_t outLen) {
    size_t alen = strlen(attr);
    for (const char *p = from; p && p + alen + 2 < to; p++) {
        p = strstr(p, attr);
        if (!p || p >= to) return 0;
        if (p > from && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == '\r') &&
            p[alen] == '=' && p[alen + 1] == '"') {
            const char *v = p + alen + 2;
            const char *e = strchr(v, '"');
            if (!e || e > to || (size_t)(e - v) >= outLen) return 0;
            memcpy(out, v, (size_t)(e - v));
            out[e - v] = '\0';
            return 1;
        }
    }
    return 0;
}

typedef struct {
    const char *name;
    int found;
    fmi2ValueReference vr;
    int hasStart;
    double start;
} Var;

/* Finds the <ScalarVariable> called v->name; fills its value reference and start. */
static int scanVariable(const char *xml, Var *v) {
    const char *p = xml;
    char buf[256];
    while ((p = strstr(p, "<ScalarVariable")) != NULL) {
        const char *end = strstr(p, "</ScalarVariable>");
        const char *tagEnd = strchr(p, '>');
        if (!tagEnd) return 0;
        if (tagEnd[-1] == '/') end = tagEnd; /* element without children */
        if (!end) return 0;
        if (attribute(p, tagEnd, "name", buf, sizeof buf) && strcmp(buf, v->name) == 0) {
            if (!attribute(p, tagEnd, "valueReference", buf, sizeof buf)) return 0;
            char *stop;
            unsigned long vr = strtoul(buf, &stop, 10);
            if (*stop != '\0' || vr > UINT_MAX) return 0;
            v->vr = (fmi2ValueReference)vr;
            v->found = 1;
            if (attribute(tagEnd, end, "start", buf, sizeof buf)) {
                v->start = strtod(buf, &stop);
                v->hasStart = (*stop == '\0');
            }
            return 1;
        }
        p = end;
    }
    return 0;
}

/* ---- simulation --------------------------------------------------------- */

enum {
    HOIST_X, HOIST_Y, HOIST_Z, HOIST_VX, HOIST_VY, HOIST_VZ, WINCH_SPEED,
    CABLE_TENSION, LOAD_Z, LOAD_X, CABLE_LENGTH, HOIST_FX, HOIST_FZ, LOAD_MASS, GRAVITY,
    N_VARS
};

static Var vars[N_VARS] = {
    [HOIST_X] = {"suspension.x", 0, 0, 0, 0}, [HOIST_Y] = {"suspension.y", 0, 0, 0, 0},
    [HOIST_Z] = {"suspension.z", 0, 0, 0, 0}, [HOIST_VX] = {"suspension.vx", 0, 0, 0, 0},
    [HOIST_VY] = {"suspension.vy", 0, 0, 0, 0}, [HOIST_VZ] = {"suspension.vz", 0, 0, 0, 0},
    [WINCH_SPEED] = {"winch.speed", 0, 0, 0, 0}, [CABLE_TENSION] = {"cable.tension", 0, 0, 0, 0},
    [LOAD_Z] = {"load.z", 0, 0, 0, 0}, [LOAD_X] = {"load.x", 0, 0, 0, 0},
    [CABLE_LENGTH] = {"cable.length", 0, 0, 0, 0}, [HOIST_FX] = {"suspension.fx", 0, 0, 0, 0},
    [HOIST_FZ] = {"suspension.fz", 0, 0, 0, 0},
    [LOAD_MASS] = {"load.mass", 0, 0, 0, 0}, [GRAVITY] = {"gravity", 0, 0, 0, 0},
};

static char guid[256];
static char resourceURI[3 * PATH_MAX + 32];

#define CHECK(call, what)                                                                          \
    do {                                                                                           \
        fmi2Status s_ = (call);                                                                    \
        if (s_ > fmi2Warning) {                                                                    \
            fprintf(stderr, "FAIL: %s returned fmi2%s\n", what, statusName(s_));                   \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)

/* Instantiates, holds the trolley still for `seconds`, prints and checks the
 * tension.  With checkError, finally checks that fmi2DoStep with a zero step
 * size returns fmi2Error and logs why.  Returns 1 on success. */
static int simulate(Binary *b, const char *instanceName, double seconds, int checkError, double *tension) {
    const fmi2CallbackFunctions callbacks = {logger, calloc, free, stepFinished, NULL};
    const double h = 0.01;
    const fmi2ValueReference inVr[7] = {vars[HOIST_X].vr,  vars[HOIST_Y].vr,  vars[HOIST_Z].vr,
                                        vars[HOIST_VX].vr, vars[HOIST_VY].vr, vars[HOIST_VZ].vr,
                                        vars[WINCH_SPEED].vr};
    const fmi2Real in[7] = {0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.0};
    const fmi2ValueReference outVr[6] = {vars[CABLE_TENSION].vr, vars[LOAD_Z].vr,
                                         vars[LOAD_X].vr,        vars[CABLE_LENGTH].vr,
                                         vars[LOAD_MASS].vr,     vars[GRAVITY].vr};
    fmi2Real out[6];
    int ok = 1;

    fmi2Component c = b->instantiate(instanceName, fmi2CoSimulation, guid, resourceURI, &callbacks,
                                     fmi2False, fmi2False);
    if (!c) {
        fprintf(stderr, "FAIL: fmi2Instantiate(%s) returned NULL\n", instanceName);
        return 0;
    }
    CHECK(b->setupExperiment(c, fmi2False, 0.0, 0.0, fmi2True, seconds), "fmi2SetupExperiment");
    CHECK(b->enterInitializationMode(c), "fmi2EnterInitializationMode");
    CHECK(b->setReal(c, inVr, 7, in), "fmi2SetReal(inputs)");
    CHECK(b->exitInitializationMode(c), "fmi2ExitInitializationMode");

    long n = (long)(seconds / h + 0.5);
    for (long i = 0; i < n; i++) {
        CHECK(b->setReal(c, inVr, 7, in), "fmi2SetReal(inputs)");
        fmi2Status s = b->doStep(c, (double)i * h, h, fmi2True);
        if (s > fmi2Warning) {
            fprintf(stderr, "FAIL: fmi2DoStep at t = %g returned fmi2%s\n", (double)i * h,
                    statusName(s));
            goto fail;
        }
    }
    CHECK(b->getReal(c, outVr, 6, out), "fmi2GetReal(outputs)");
    for (int i = 0; i < 6; i++) {
        if (!isfinite(out[i])) {
            fprintf(stderr, "FAIL: output %d is not finite\n", i);
            ok = 0;
        }
    }

    double mass = out[4], g = out[5], mg = mass * g;
    if (tension) *tension = out[0];
    double rel = (out[0] - mg) / mg;
    printf("%s after %.2f s: cable.tension = %.3f N, load.z = %.4f m, load.x = %.3g m, "
           "cable.length = %.4f m\n",
           instanceName, (double)n * h, out[0], out[1], out[2], out[3]);
    printf("%s: load.mass * gravity = %g * %g = %.3f N, deviation %+.4f %% (limit 0.5 %%)\n",
           instanceName, mass, g, mg, 100.0 * rel);
    if (!(rel <= 0.005 && rel >= -0.005)) {
        fprintf(stderr, "FAIL: tension %.3f N is not within 0.5 %% of m*g = %.3f N\n", out[0], mg);
        ok = 0;
    }
    if (!(out[1] < 20.0)) {
        fprintf(stderr, "FAIL: load.z = %g is not below the suspension point\n", out[1]);
        ok = 0;
    }
    if (vars[LOAD_MASS].hasStart && vars[GRAVITY].hasStart &&
        (mass != vars[LOAD_MASS].start || g != vars[GRAVITY].start)) {
        fprintf(stderr, "FAIL: load.mass/gravity (%g, %g) differ from the start values (%g, %g)\n",
                mass, g, vars[LOAD_MASS].start, vars[GRAVITY].start);
        ok = 0;
    }
    if (checkError) {
        int before = nMessages;
        fmi2Status s = b->doStep(c, (double)n * h, 0.0, fmi2True);
        if (s != fmi2Error || nMessages == before) {
            fprintf(stderr, "FAIL: fmi2DoStep with step size 0 returned fmi2%s and logged %d messages, "
                    "expected fmi2Error with a message\n", statusName(s), nMessages - before);
            ok = 0;
        } else {
            printf("%s: fmi2DoStep with step size 0 returned fmi2Error as expected\n", instanceName);
        }
        b->freeInstance(c);
        return ok;
    }
    CHECK(b->terminate(c), "fmi2Terminate");
    b->freeInstance(c);
    return ok;

fail:
    b->freeInstance(c);
    return 0;
}

/* Moves the trolley 4 m along x in 30 s, x(t) = 2 (1 - cos(pi t / 20)) m
 * for t < 20 s (a smooth start and stop) and 4 m after, with its speed as
 * suspension.vx, and writes the outputs after every step of 0.01 s to trace. */
static int trolleyMove(Binary *b, FILE *trace) {
    const fmi2CallbackFunctions callbacks = {logger, calloc, free, stepFinished, NULL};
    const double h = 0.01, pi = 3.14159265358979323846;
    const fmi2ValueReference inVr[7] = {vars[HOIST_X].vr,  vars[HOIST_Y].vr,  vars[HOIST_Z].vr,
                                        vars[HOIST_VX].vr, vars[HOIST_VY].vr, vars[HOIST_VZ].vr,
                                        vars[WINCH_SPEED].vr};
    const fmi2ValueReference outVr[5] = {vars[CABLE_TENSION].vr, vars[LOAD_X].vr, vars[LOAD_Z].vr,
                                         vars[HOIST_FX].vr, vars[HOIST_FZ].vr};
    fmi2Real in[7] = {0.0, 0.0, 20.0, 0.0, 0.0, 0.0, 0.0}, out[5];
    fmi2Component c = b->instantiate("trolley", fmi2CoSimulation, guid, resourceURI, &callbacks,
                                     fmi2False, fmi2False);
    if (!c) {
        fprintf(stderr, "FAIL: fmi2Instantiate(trolley) returned NULL\n");
        return 0;
    }
    CHECK(b->setupExperiment(c, fmi2False, 0.0, 0.0, fmi2True, 30.0), "fmi2SetupExperiment");
    CHECK(b->enterInitializationMode(c), "fmi2EnterInitializationMode");
    CHECK(b->setReal(c, inVr, 7, in), "fmi2SetReal(inputs)");
    CHECK(b->exitInitializationMode(c), "fmi2ExitInitializationMode");
    fprintf(trace, "time,cable.tension,load.x,load.z,suspension.fx,suspension.fz\n");
    for (int i = 0; i < 3000; i++) {
        double t = i * h;
        in[0] = t < 20.0 ? 2.0 * (1.0 - cos(pi * t / 20.0)) : 4.0;
        in[3] = t < 20.0 ? 2.0 * pi / 20.0 * sin(pi * t / 20.0) : 0.0;
        CHECK(b->setReal(c, inVr, 7, in), "fmi2SetReal(inputs)");
        CHECK(b->doStep(c, t, h, fmi2True), "fmi2DoStep");
        CHECK(b->getReal(c, outVr, 5, out), "fmi2GetReal(outputs)");
        fprintf(trace, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", (i + 1) * h, out[0], out[1], out[2],
                out[3], out[4]);
    }
    printf("trolley moved 4 m in 30 s: load.x = %.4f m, cable.tension = %.3f N\n", out[1], out[0]);
    CHECK(b->terminate(c), "fmi2Terminate");
    b->freeInstance(c);
    return 1;

fail:
    b->freeInstance(c);
    return 0;
}

/* One of the instances run at once on their own threads. */
typedef struct {
    Binary *b;
    const char *name;
    int ok;
    double tension;
} Job;

static void *runJob(void *p) {
    Job *j = p;
    j->ok = simulate(j->b, j->name, 2.0, 0, &j->tension);
    return NULL;
}

int main(int argc, char **argv) {
    const char *folder = NULL, *tracePath = NULL;
    double seconds = 10.0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--trace") == 0 && i + 1 < argc) {
            tracePath = argv[++i];
        } else if (!folder) {
            folder = argv[i];
        } else {
            seconds = atof(argv[i]);
        }
    }
    if (!folder) {
        fprintf(stderr, "usage: %s <unpacked FMU folder> [seconds] [--trace FILE]\n", argv[0]);
        return 2;
    }
    if (!(seconds > 0)) {
        fprintf(stderr, "seconds must be positive\n");
        return 2;
    }
    char root[PATH_MAX];
    if (!absolutePath(folder, root, sizeof root)) {
        perror(folder);
        return 1;
    }

    char path[PATH_MAX + 320];
    snprintf(path, sizeof path, "%s%cmodelDescription.xml", root, PATH_SEP);
    char *xml = readFile(path);
    if (!xml) {
        fprintf(stderr, "FAIL: cannot read %s\n", path);
        return 1;
    }
    char identifier[256];
    const char *md = strstr(xml, "<fmiModelDescription");
    const char *mdEnd = md ? strchr(md, '>') : NULL;
    const char *cs = strstr(xml, "<CoSimulation");
    const char *csEnd = cs ? strchr(cs, '>') : NULL;
    if (!mdEnd || !attribute(md, mdEnd, "guid", guid, sizeof guid) || !csEnd ||
        !attribute(cs, csEnd, "modelIdentifier", identifier, sizeof identifier)) {
        fprintf(stderr, "FAIL: no guid or <CoSimulation modelIdentifier=...> in %s\n", path);
        free(xml);
        return 1;
    }
    int ok = 1;
    for (int i = 0; i < N_VARS; i++) {
        if (!scanVariable(xml, &vars[i])) {
            fprintf(stderr, "FAIL: variable %s not found in %s\n", vars[i].name, path);
            ok = 0;
        }
    }
    free(xml);
    if (!ok) return 1;
    if (!vars[LOAD_MASS].hasStart) vars[LOAD_MASS].start = 1000.0;
    if (!vars[GRAVITY].hasStart) vars[GRAVITY].start = 9.81;
    printf("modelIdentifier %s, guid %s; load.mass start %g kg, gravity start %g m/s^2\n", identifier, guid,
           vars[LOAD_MASS].start, vars[GRAVITY].start);
    fileURI(root, "/resources", resourceURI, sizeof resourceURI);
    printf("resources at %s\n", resourceURI);
    if ((size_t)snprintf(path, sizeof path, "%s%cbinaries%c" PLATFORM_FMI2 "%c%s" LIBRARY_EXT, root, PATH_SEP,
                         PATH_SEP, PATH_SEP, identifier) >= sizeof path) {
        fprintf(stderr, "FAIL: path of the binary too long\n");
        return 1;
    }

    Binary b;
    if (!loadBinary(&b, path)) return 1;
    {
        /* The GUID of another FMU is refused: no instance, and a message why. */
        const fmi2CallbackFunctions callbacks = {logger, calloc, free, stepFinished, NULL};
        int before = nMessages;
        fmi2Component c = b.instantiate("wrong", fmi2CoSimulation, "{not-this-fmu}", resourceURI, &callbacks,
                                        fmi2False, fmi2False);
        if (c || nMessages == before) {
            fprintf(stderr, "FAIL: fmi2Instantiate with a wrong GUID returned %p with %d messages\n", c,
                    nMessages - before);
            if (c) b.freeInstance(c);
            ok = 0;
        } else {
            printf("a wrong GUID is refused with a message\n");
        }
    }
    if (!simulate(&b, "hoist1", seconds, 0, NULL)) ok = 0;
    if (libraryClose(b.handle) != 0) {
        fprintf(stderr, "FAIL: unloading: %s\n", libraryError());
        ok = 0;
    }

    printf("reloading after unloading\n");
    if (!loadBinary(&b, path)) return 1;
    if (!simulate(&b, "hoist2", 1.0, 1, NULL)) ok = 0;

    Job jobs[2] = {{&b, "thread1", 0, 0.0}, {&b, "thread2", 0, 0.0}};
    Thread threads[2];
    int started = 0;
    for (; started < 2; started++) {
        if (!threadStart(&threads[started], runJob, &jobs[started])) {
            fprintf(stderr, "FAIL: cannot start thread %d\n", started + 1);
            ok = 0;
            break;
        }
    }
    for (int i = 0; i < started; i++) threadJoin(&threads[i]);
    if (started == 2) {
        if (!jobs[0].ok || !jobs[1].ok || jobs[0].tension != jobs[1].tension) {
            fprintf(stderr, "FAIL: two instances on two threads: ok %d/%d, tension %.17g/%.17g\n", jobs[0].ok,
                    jobs[1].ok, jobs[0].tension, jobs[1].tension);
            ok = 0;
        } else {
            printf("two instances on two threads gave the same tension\n");
        }
    }

    if (tracePath) {
        FILE *trace = fopen(tracePath, "w");
        if (!trace) {
            perror(tracePath);
            return 1;
        }
        if (!trolleyMove(&b, trace)) ok = 0;
        if (fclose(trace) != 0) {
            perror(tracePath);
            ok = 0;
        }
    }
    if (libraryClose(b.handle) != 0) {
        fprintf(stderr, "FAIL: unloading: %s\n", libraryError());
        ok = 0;
    }

    printf("%s (%d log messages)\n", ok ? "PASS" : "FAIL", nMessages);
    return ok ? 0 : 1;
}
