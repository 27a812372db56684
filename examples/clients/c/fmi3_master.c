/*
 * Minimal FMI 3.0 Co-Simulation master for the Hoist FMUs (Linux and Windows x86-64)
 * ==================================================================================
 *
 * Build and run on Linux:
 *
 *     gcc -O2 -o out/fmi3_master examples/clients/c/fmi3_master.c -ldl -lpthread -lm
 *     python3 -m zipfile -e out/Hoist3.fmu out/Hoist3_fmu     # unpack once
 *     out/fmi3_master out/Hoist3_fmu
 *
 * and for Windows (run it there, or under Wine):
 *
 *     x86_64-w64-mingw32-gcc -O2 -o out/fmi3_master.exe examples/clients/c/fmi3_master.c
 *
 * The argument is the folder of an unpacked FMI 3.0 FMU (an optional
 * second argument sets the simulated time, default 10 s; "--trace FILE"
 * adds a trolley move, below).  The master
 *
 *   1. reads the instantiationToken, the modelIdentifier of <CoSimulation>
 *      and the value references and start values of the Float64 variables it
 *      uses from <folder>/modelDescription.xml with a plain string scan (no
 *      XML library);
 *   2. loads <folder>/binaries/<platform>/<modelIdentifier>.so (or .dll)
 *      and looks up all 75 fmi3* functions of FMI 3.0 (it fails and names
 *      every function that is missing);
 *   3. checks that a wrong instantiationToken is refused with a message;
 *      instantiates with fmi3InstantiateCoSimulation, initializes
 *      (fmi3EnterInitializationMode with start and stop time, inputs set in
 *      Initialization Mode, fmi3ExitInitializationMode goes straight to Step
 *      Mode since eventModeUsed is false) and steps with a communication step
 *      of 0.01 s while holding the suspension point still where its start
 *      values put it, checking the outputs of every fmi3DoStep
 *      (lastSuccessfulTime = t + h, no event, no early return);
 *   4. prints the cable tension and checks that it is within 0.5 % of
 *      load.mass * gravity;
 *   5. saves the FMU state, steps 1 s with the trolley moving, restores the
 *      state, steps the same second again and checks that the outputs are
 *      bitwise identical;
 *   6. checks that fmi3DoStep with a zero step size returns fmi3Error with a
 *      message through the log callback, terminates and frees the instance;
 *   7. unloads the library, loads it again and runs 3.-6. for 1 s, then on
 *      two threads at once;
 *   8. with --trace FILE: moves the trolley 4 m in 30 s (a smooth S-curve,
 *      its speed as suspension.vx) and writes time, cable.tension, load.x,
 *      load.z, suspension.fx and suspension.fz after every step to FILE (CSV, 17
 *      digits), so that runs on two platforms can be compared.
 *
 * It exits with 0 only if every step above passed.  The FMI 3.0 types are
 * declared below; the standard's headers are not needed.  Unlike FMI 2.0, the
 * FMI 3.0 log callback is not variadic: the message is plain text.
 */

#define _GNU_SOURCE
#include <math.h> /* isfinite, cos and sin */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

/* ---- FMI 3.0 types (fmi3PlatformTypes.h, fmi3FunctionTypes.h) ----------- */

typedef void *fmi3Instance;
typedef void *fmi3InstanceEnvironment;
typedef void *fmi3FMUState;
typedef uint32_t fmi3ValueReference;
typedef double fmi3Float64;
typedef bool fmi3Boolean;
typedef char fmi3Char;
typedef const fmi3Char *fmi3String;
typedef uint8_t fmi3Byte;

typedef enum { fmi3OK, fmi3Warning, fmi3Discard, fmi3Error, fmi3Fatal } fmi3Status;

typedef void (*fmi3LogMessageCallback)(fmi3InstanceEnvironment instanceEnvironment, fmi3Status status,
                                       fmi3String category, fmi3String message);
typedef void (*fmi3IntermediateUpdateCallback)(fmi3InstanceEnvironment instanceEnvironment,
                                               fmi3Float64 intermediateUpdateTime,
                                               fmi3Boolean intermediateVariableSetRequested,
                                               fmi3Boolean intermediateVariableGetAllowed,
                                               fmi3Boolean intermediateStepFinished,
                                               fmi3Boolean canReturnEarly, fmi3Boolean *earlyReturnRequested,
                                               fmi3Float64 *earlyReturnTime);

/* The functions this master calls. */
typedef const char *fmi3GetVersionTYPE(void);
typedef fmi3Instance fmi3InstantiateCoSimulationTYPE(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath, fmi3Boolean visible,
    fmi3Boolean loggingOn, fmi3Boolean eventModeUsed, fmi3Boolean earlyReturnAllowed,
    const fmi3ValueReference requiredIntermediateVariables[], size_t nRequiredIntermediateVariables,
    fmi3InstanceEnvironment instanceEnvironment, fmi3LogMessageCallback logMessage,
    fmi3IntermediateUpdateCallback intermediateUpdate);
typedef void fmi3FreeInstanceTYPE(fmi3Instance instance);
typedef fmi3Status fmi3EnterInitializationModeTYPE(fmi3Instance instance, fmi3Boolean toleranceDefined,
                                                   fmi3Float64 tolerance, fmi3Float64 startTime,
                                                   fmi3Boolean stopTimeDefined, fmi3Float64 stopTime);
typedef fmi3Status fmi3InstanceFunctionTYPE(fmi3Instance instance);
typedef fmi3Status fmi3GetFloat64TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                      size_t nValueReferences, fmi3Float64 values[], size_t nValues);
typedef fmi3Status fmi3SetFloat64TYPE(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                      size_t nValueReferences, const fmi3Float64 values[], size_t nValues);
typedef fmi3Status fmi3DoStepTYPE(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                                  fmi3Float64 communicationStepSize,
                                  fmi3Boolean noSetFMUStatePriorToCurrentPoint, fmi3Boolean *eventHandlingNeeded,
                                  fmi3Boolean *terminateSimulation, fmi3Boolean *earlyReturn,
                                  fmi3Float64 *lastSuccessfulTime);
typedef fmi3Status fmi3GetFMUStateTYPE(fmi3Instance instance, fmi3FMUState *FMUState);
typedef fmi3Status fmi3SetFMUStateTYPE(fmi3Instance instance, fmi3FMUState FMUState);
typedef fmi3Status fmi3FreeFMUStateTYPE(fmi3Instance instance, fmi3FMUState *FMUState);

/* All 75 functions of FMI 3.0 (fmi3Functions.h). */
static const char *const fmi3FunctionNames[] = {
    /* common */
    "fmi3GetVersion", "fmi3SetDebugLogging", "fmi3InstantiateModelExchange", "fmi3InstantiateCoSimulation",
    "fmi3InstantiateScheduledExecution", "fmi3FreeInstance", "fmi3EnterInitializationMode",
    "fmi3ExitInitializationMode", "fmi3EnterEventMode", "fmi3Terminate", "fmi3Reset",
    /* getters and setters */
    "fmi3GetFloat32", "fmi3GetFloat64", "fmi3GetInt8", "fmi3GetUInt8", "fmi3GetInt16", "fmi3GetUInt16",
    "fmi3GetInt32", "fmi3GetUInt32", "fmi3GetInt64", "fmi3GetUInt64", "fmi3GetBoolean", "fmi3GetString",
    "fmi3GetBinary", "fmi3GetClock", "fmi3SetFloat32", "fmi3SetFloat64", "fmi3SetInt8", "fmi3SetUInt8",
    "fmi3SetInt16", "fmi3SetUInt16", "fmi3SetInt32", "fmi3SetUInt32", "fmi3SetInt64", "fmi3SetUInt64",
    "fmi3SetBoolean", "fmi3SetString", "fmi3SetBinary", "fmi3SetClock",
    /* dependencies */
    "fmi3GetNumberOfVariableDependencies", "fmi3GetVariableDependencies",
    /* FMU state */
    "fmi3GetFMUState", "fmi3SetFMUState", "fmi3FreeFMUState", "fmi3SerializedFMUStateSize",
    "fmi3SerializeFMUState", "fmi3DeserializeFMUState",
    /* derivatives */
    "fmi3GetDirectionalDerivative", "fmi3GetAdjointDerivative",
    /* configuration mode */
    "fmi3EnterConfigurationMode", "fmi3ExitConfigurationMode",
    /* clocks */
    "fmi3GetIntervalDecimal", "fmi3GetIntervalFraction", "fmi3GetShiftDecimal", "fmi3GetShiftFraction",
    "fmi3SetIntervalDecimal", "fmi3SetIntervalFraction", "fmi3SetShiftDecimal", "fmi3SetShiftFraction",
    "fmi3EvaluateDiscreteStates", "fmi3UpdateDiscreteStates",
    /* Model Exchange */
    "fmi3EnterContinuousTimeMode", "fmi3CompletedIntegratorStep", "fmi3SetTime", "fmi3SetContinuousStates",
    "fmi3GetContinuousStateDerivatives", "fmi3GetEventIndicators", "fmi3GetContinuousStates",
    "fmi3GetNominalsOfContinuousStates", "fmi3GetNumberOfEventIndicators", "fmi3GetNumberOfContinuousStates",
    /* Co-Simulation */
    "fmi3EnterStepMode", "fmi3GetOutputDerivatives", "fmi3DoStep",
    /* Scheduled Execution */
    "fmi3ActivateModelPartition",
};
#define N_FUNCTIONS ((int)(sizeof fmi3FunctionNames / sizeof fmi3FunctionNames[0]))

typedef struct {
    Library handle;
    void *sym[N_FUNCTIONS];
    fmi3GetVersionTYPE *getVersion;
    fmi3InstantiateCoSimulationTYPE *instantiate;
    fmi3FreeInstanceTYPE *freeInstance;
    fmi3EnterInitializationModeTYPE *enterInitializationMode;
    fmi3InstanceFunctionTYPE *exitInitializationMode;
    fmi3InstanceFunctionTYPE *terminate;
    fmi3GetFloat64TYPE *getFloat64;
    fmi3SetFloat64TYPE *setFloat64;
    fmi3DoStepTYPE *doStep;
    fmi3GetFMUStateTYPE *getFMUState;
    fmi3SetFMUStateTYPE *setFMUState;
    fmi3FreeFMUStateTYPE *freeFMUState;
} Binary;

static double absd(double x) { return x < 0 ? -x : x; }

/* ---- log callback -------------------------------------------------------- */

static int nMessages = 0;
static int nErrorMessages = 0;

static const char *statusName(fmi3Status s) {
    switch (s) {
    case fmi3OK: return "OK";
    case fmi3Warning: return "Warning";
    case fmi3Discard: return "Discard";
    case fmi3Error: return "Error";
    case fmi3Fatal: return "Fatal";
    }
    return "?";
}

/* instanceEnvironment is the instance name given to fmi3InstantiateCoSimulation. */
static void logMessage(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
    countUp(&nMessages);
    if (status >= fmi3Error) countUp(&nErrorMessages);
    printf("  log [%s] %s %s: %s\n", statusName(status), env ? (const char *)env : "?", category ? category : "",
           message ? message : "");
    fflush(stdout);
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

/* Copies the value of attribute `attr` of the start tag [from, to) into out.
 * The name must follow white space so that name="" does not match
 * modelName="". */
static int attribute(const char *from, const char *to, const char *attr, char *out, size_t outLen) {
    size_t alen = strlen(attr);
    for (const char *p = from; p < to; p++) {
        p = strstr(p, attr);
        if (!p || p + alen + 2 > to) return 0;
        if (p > from && strchr(" \t\r\n", p[-1]) && p[alen] == '=' && p[alen + 1] == '"') {
            const char *v = p + alen + 2;
            const char *e = memchr(v, '"', (size_t)(to - v));
            if (!e || (size_t)(e - v) >= outLen) return 0;
            memcpy(out, v, (size_t)(e - v));
            out[e - v] = '\0';
            return 1;
        }
    }
    return 0;
}

/* The start tag of the first element <tag ...> (tag followed by white space). */
static const char *startTag(const char *xml, const char *tag, const char **end) {
    size_t n = strlen(tag);
    for (const char *p = xml; (p = strstr(p, tag)) != NULL; p += n) {
        if (p[-1] == '<' && strchr(" \t\r\n", p[n])) {
            *end = strchr(p, '>');
            return *end ? p : NULL;
        }
    }
    return NULL;
}

typedef struct {
    const char *name;
    fmi3ValueReference vr;
    int hasStart;
    double start;
} Var;

/* Finds the <Float64 name="..."> variable v->name: its value reference and start. */
static int scanFloat64(const char *xml, Var *v) {
    char buf[256];
    for (const char *p = xml; (p = strstr(p, "<Float64")) != NULL; p++) {
        const char *end = strchr(p, '>');
        if (!end) return 0;
        if (!strchr(" \t\r\n", p[8])) continue;
        if (attribute(p, end, "name", buf, sizeof buf) && strcmp(buf, v->name) == 0) {
            char *stop;
            if (!attribute(p, end, "valueReference", buf, sizeof buf)) return 0;
            unsigned long vr = strtoul(buf, &stop, 10);
            if (*stop != '\0' || vr > UINT32_MAX) return 0;
            v->vr = (fmi3ValueReference)vr;
            if (attribute(p, end, "start", buf, sizeof buf)) {
                v->start = strtod(buf, &stop);
                v->hasStart = (*stop == '\0');
            }
            return 1;
        }
    }
    return 0;
}

/* ---- loading ------------------------------------------------------------ */

/* Converts the object pointer of a looked-up symbol to a function pointer. */
#define BIND(b, field, index)                                                                      \
    do {                                                                                           \
        void *p_ = (b)->sym[index];                                                                \
        memcpy(&(b)->field, &p_, sizeof p_);                                                       \
    } while (0)

static int indexOf(const char *name) {
    for (int i = 0; i < N_FUNCTIONS; i++)
        if (strcmp(fmi3FunctionNames[i], name) == 0) return i;
    fprintf(stderr, "internal error: %s not in the function table\n", name);
    exit(2);
}

static int loadBinary(Binary *b, const char *path) {
    memset(b, 0, sizeof *b);
    b->handle = libraryOpen(path);
    if (!b->handle) {
        fprintf(stderr, "FAIL: loading %s: %s\n", path, libraryError());
        return 0;
    }
    int missing = 0;
    for (int i = 0; i < N_FUNCTIONS; i++) {
        b->sym[i] = librarySymbol(b->handle, fmi3FunctionNames[i]);
        if (!b->sym[i]) {
            fprintf(stderr, "FAIL: %s does not export %s\n", path, fmi3FunctionNames[i]);
            missing++;
        }
    }
    if (missing) {
        fprintf(stderr, "FAIL: %d of the %d FMI 3.0 functions missing\n", missing, N_FUNCTIONS);
        return 0;
    }
    BIND(b, getVersion, indexOf("fmi3GetVersion"));
    BIND(b, instantiate, indexOf("fmi3InstantiateCoSimulation"));
    BIND(b, freeInstance, indexOf("fmi3FreeInstance"));
    BIND(b, enterInitializationMode, indexOf("fmi3EnterInitializationMode"));
    BIND(b, exitInitializationMode, indexOf("fmi3ExitInitializationMode"));
    BIND(b, terminate, indexOf("fmi3Terminate"));
    BIND(b, getFloat64, indexOf("fmi3GetFloat64"));
    BIND(b, setFloat64, indexOf("fmi3SetFloat64"));
    BIND(b, doStep, indexOf("fmi3DoStep"));
    BIND(b, getFMUState, indexOf("fmi3GetFMUState"));
    BIND(b, setFMUState, indexOf("fmi3SetFMUState"));
    BIND(b, freeFMUState, indexOf("fmi3FreeFMUState"));
    printf("loaded %s: all %d functions found, fmi3GetVersion() = %s\n", path, N_FUNCTIONS, b->getVersion());
    return 1;
}

/* ---- simulation --------------------------------------------------------- */

enum {
    HOIST_X, HOIST_Y, HOIST_Z, HOIST_VX, HOIST_VY, HOIST_VZ, WINCH_SPEED, /* inputs */
    CABLE_TENSION, LOAD_X, LOAD_Z, CABLE_LENGTH, HOIST_FX, HOIST_FZ, LOAD_MASS, GRAVITY, /* read */
    N_VARS
};
#define N_INPUTS 7
#define N_READ (N_VARS - N_INPUTS)

static Var vars[N_VARS] = {
    [HOIST_X] = {"suspension.x", 0, 0, 0},         [HOIST_Y] = {"suspension.y", 0, 0, 0},
    [HOIST_Z] = {"suspension.z", 0, 0, 0},         [HOIST_VX] = {"suspension.vx", 0, 0, 0},
    [HOIST_VY] = {"suspension.vy", 0, 0, 0},       [HOIST_VZ] = {"suspension.vz", 0, 0, 0},
    [WINCH_SPEED] = {"winch.speed", 0, 0, 0}, [CABLE_TENSION] = {"cable.tension", 0, 0, 0},
    [LOAD_X] = {"load.x", 0, 0, 0},           [LOAD_Z] = {"load.z", 0, 0, 0},
    [CABLE_LENGTH] = {"cable.length", 0, 0, 0}, [HOIST_FX] = {"suspension.fx", 0, 0, 0},
    [HOIST_FZ] = {"suspension.fz", 0, 0, 0},       [LOAD_MASS] = {"load.mass", 0, 0, 0},
    [GRAVITY] = {"gravity", 0, 0, 0},
};

#define CHECK(call, what)                                                                          \
    do {                                                                                           \
        fmi3Status s_ = (call);                                                                    \
        if (s_ > fmi3Warning) {                                                                    \
            fprintf(stderr, "FAIL: %s returned fmi3%s\n", what, statusName(s_));                   \
            goto fail;                                                                             \
        }                                                                                          \
    } while (0)

/* One fmi3DoStep from t to t + h with its outputs checked; 1 on success. */
static int step(Binary *b, fmi3Instance c, double t, double h) {
    fmi3Boolean event = true, terminate = true, early = true;
    fmi3Float64 last = -1.0;
    fmi3Status s = b->doStep(c, t, h, true, &event, &terminate, &early, &last);
    if (s > fmi3Warning) {
        fprintf(stderr, "FAIL: fmi3DoStep(t = %.17g, h = %.17g) returned fmi3%s\n", t, h, statusName(s));
        return 0;
    }
    if (event || terminate || early || !(absd(last - (t + h)) <= 1e-9 * (1.0 + absd(t + h)))) {
        fprintf(stderr, "FAIL: fmi3DoStep(t = %.17g, h = %.17g): eventHandlingNeeded %d, terminateSimulation %d, "
                "earlyReturn %d, lastSuccessfulTime %.17g (want 0, 0, 0, t + h)\n", t, h, event, terminate, early,
                last);
        return 0;
    }
    return 1;
}

/* Steps n communication steps of h from t0 with the trolley moving at vx
 * from x0 (inputs set before every step); reads vars[N_INPUTS...] into out. */
static int run(Binary *b, fmi3Instance c, double t0, long n, double h, double x0, double vx, fmi3Float64 out[]) {
    fmi3ValueReference inVr[N_INPUTS], outVr[N_READ];
    fmi3Float64 in[N_INPUTS];
    for (int i = 0; i < N_INPUTS; i++) {
        inVr[i] = vars[i].vr;
        in[i] = vars[i].start;
    }
    for (int i = 0; i < N_READ; i++) outVr[i] = vars[N_INPUTS + i].vr;
    for (long k = 0; k < n; k++) {
        double t = t0 + (double)k * h;
        in[HOIST_X] = x0 + vx * (t - t0);
        in[HOIST_VX] = vx;
        CHECK(b->setFloat64(c, inVr, N_INPUTS, in, N_INPUTS), "fmi3SetFloat64(inputs)");
        if (!step(b, c, t, h)) return 0;
    }
    CHECK(b->getFloat64(c, outVr, N_READ, out, N_READ), "fmi3GetFloat64");
    for (int i = 0; i < N_READ; i++) {
        if (!isfinite(out[i])) {
            fprintf(stderr, "FAIL: %s = %g is not finite\n", vars[N_INPUTS + i].name, out[i]);
            return 0;
        }
    }
    return 1;
fail:
    return 0;
}

#define OUTPUT(i) out[(i) - N_INPUTS]

static int simulate(Binary *b, const char *token, const char *resources, double seconds) {
    static const char name[] = "hoist";
    const double h = 0.01;
    long n = (long)(seconds / h + 0.5);
    fmi3Float64 out[N_READ], first[N_READ], again[N_READ];
    fmi3ValueReference inVr[N_INPUTS];
    fmi3Float64 in[N_INPUTS];
    fmi3FMUState state = NULL;
    int ok = 1;

    for (int i = 0; i < N_INPUTS; i++) {
        inVr[i] = vars[i].vr;
        in[i] = vars[i].start;
    }
    fmi3Instance c = b->instantiate(name, token, resources, false, false, false, false, NULL, 0, (void *)name,
                                    logMessage, NULL);
    if (!c) {
        fprintf(stderr, "FAIL: fmi3InstantiateCoSimulation returned NULL\n");
        return 0;
    }
    CHECK(b->enterInitializationMode(c, false, 0.0, 0.0, true, seconds + 2.0), "fmi3EnterInitializationMode");
    CHECK(b->setFloat64(c, inVr, N_INPUTS, in, N_INPUTS), "fmi3SetFloat64(inputs)");
    CHECK(b->exitInitializationMode(c), "fmi3ExitInitializationMode");

    /* at rest */
    if (!run(b, c, 0.0, n, h, vars[HOIST_X].start, 0.0, out)) goto fail;
    double mg = OUTPUT(LOAD_MASS) * OUTPUT(GRAVITY);
    double rel = (OUTPUT(CABLE_TENSION) - mg) / mg;
    printf("after %.2f s at rest: cable.tension = %.3f N, load.z = %.4f m, cable.length = %.4f m, "
           "suspension.fz = %.3f N\n", (double)n * h, OUTPUT(CABLE_TENSION), OUTPUT(LOAD_Z), OUTPUT(CABLE_LENGTH), OUTPUT(HOIST_FZ));
    printf("load.mass * gravity = %.3f N, deviation %+.4f %% (limit 0.5 %%)\n", mg, 100.0 * rel);
    if (!(absd(rel) <= 0.005)) {
        fprintf(stderr, "FAIL: cable.tension %.3f N is not within 0.5 %% of m*g = %.3f N\n", OUTPUT(CABLE_TENSION), mg);
        ok = 0;
    }

    /* save, move 1 s, restore, move the same second again */
    double t = (double)n * h;
    CHECK(b->getFMUState(c, &state), "fmi3GetFMUState");
    if (!run(b, c, t, 100, h, vars[HOIST_X].start, 0.5, first)) goto fail;
    CHECK(b->setFMUState(c, state), "fmi3SetFMUState");
    if (!run(b, c, t, 100, h, vars[HOIST_X].start, 0.5, again)) goto fail;
    CHECK(b->freeFMUState(c, &state), "fmi3FreeFMUState");
    if (state != NULL) {
        fprintf(stderr, "FAIL: fmi3FreeFMUState left the state pointer non-NULL\n");
        ok = 0;
    }
    printf("trolley at 0.5 m/s for 1 s: load.x = %.4f m, suspension.fx = %.3f N\n", first[LOAD_X - N_INPUTS],
           first[HOIST_FX - N_INPUTS]);
    if (memcmp(first, again, sizeof first) != 0) {
        fprintf(stderr, "FAIL: the run after fmi3SetFMUState differs from the first one\n");
        ok = 0;
    } else {
        printf("restored FMU state continues bitwise identically\n");
    }

    /* a zero step size is refused with a message */
    int before = nErrorMessages;
    fmi3Boolean event, terminate, early;
    fmi3Float64 last;
    fmi3Status s = b->doStep(c, t + 1.0, 0.0, true, &event, &terminate, &early, &last);
    if (s != fmi3Error || nErrorMessages == before) {
        fprintf(stderr, "FAIL: fmi3DoStep with step size 0 returned fmi3%s and logged %d error messages, "
                "expected fmi3Error with a message\n", statusName(s), nErrorMessages - before);
        ok = 0;
    } else {
        printf("fmi3DoStep with step size 0 returned fmi3Error as expected\n");
    }
    s = b->terminate(c);
    if (s > fmi3Warning) {
        /* after fmi3Error the only calls allowed are fmi3Reset/fmi3FreeInstance, or fmi3Terminate */
        printf("fmi3Terminate after the refused step returned fmi3%s\n", statusName(s));
    }
    b->freeInstance(c);
    return ok;

fail:
    if (state) b->freeFMUState(c, &state);
    b->freeInstance(c);
    return 0;
}

/* Moves the trolley 4 m along x in 30 s, x(t) = x0 + 2 (1 - cos(pi t / 20)) m
 * for t < 20 s (a smooth start and stop) and x0 + 4 m after, with its speed
 * as suspension.vx, and writes the outputs after every step of 0.01 s to trace. */
static int trolleyMove(Binary *b, const char *token, const char *resources, FILE *trace) {
    static const char name[] = "trolley";
    const double h = 0.01, pi = 3.14159265358979323846;
    fmi3ValueReference inVr[N_INPUTS];
    fmi3Float64 in[N_INPUTS], out[5];
    const fmi3ValueReference outVr[5] = {vars[CABLE_TENSION].vr, vars[LOAD_X].vr, vars[LOAD_Z].vr,
                                         vars[HOIST_FX].vr, vars[HOIST_FZ].vr};
    for (int i = 0; i < N_INPUTS; i++) {
        inVr[i] = vars[i].vr;
        in[i] = vars[i].start;
    }
    fmi3Instance c = b->instantiate(name, token, resources, false, false, false, false, NULL, 0, (void *)name,
                                    logMessage, NULL);
    if (!c) {
        fprintf(stderr, "FAIL: fmi3InstantiateCoSimulation(trolley) returned NULL\n");
        return 0;
    }
    CHECK(b->enterInitializationMode(c, false, 0.0, 0.0, true, 30.0), "fmi3EnterInitializationMode");
    CHECK(b->setFloat64(c, inVr, N_INPUTS, in, N_INPUTS), "fmi3SetFloat64(inputs)");
    CHECK(b->exitInitializationMode(c), "fmi3ExitInitializationMode");
    fprintf(trace, "time,cable.tension,load.x,load.z,suspension.fx,suspension.fz\n");
    for (int i = 0; i < 3000; i++) {
        double t = i * h;
        in[HOIST_X] = vars[HOIST_X].start + (t < 20.0 ? 2.0 * (1.0 - cos(pi * t / 20.0)) : 4.0);
        in[HOIST_VX] = t < 20.0 ? 2.0 * pi / 20.0 * sin(pi * t / 20.0) : 0.0;
        CHECK(b->setFloat64(c, inVr, N_INPUTS, in, N_INPUTS), "fmi3SetFloat64(inputs)");
        if (!step(b, c, t, h)) goto fail;
        CHECK(b->getFloat64(c, outVr, 5, out, 5), "fmi3GetFloat64(outputs)");
        fprintf(trace, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", (i + 1) * h, out[0], out[1], out[2], out[3],
                out[4]);
    }
    printf("trolley moved 4 m in 30 s: load.x = %.4f m, cable.tension = %.3f N\n", out[1], out[0]);
    CHECK(b->terminate(c), "fmi3Terminate");
    b->freeInstance(c);
    return 1;

fail:
    b->freeInstance(c);
    return 0;
}

/* One of the instances run at once on their own threads. */
typedef struct {
    Binary *b;
    const char *token, *resources;
    int ok;
} Job;

static void *runJob(void *p) {
    Job *j = p;
    j->ok = simulate(j->b, j->token, j->resources, 1.0);
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
    char token[512], identifier[256], version[16];
    const char *end;
    const char *md = startTag(xml, "fmiModelDescription", &end);
    if (!md || !attribute(md, end, "instantiationToken", token, sizeof token) ||
        !attribute(md, end, "fmiVersion", version, sizeof version)) {
        fprintf(stderr, "FAIL: no <fmiModelDescription fmiVersion=... instantiationToken=...> in %s\n", path);
        free(xml);
        return 1;
    }
    const char *cs = startTag(xml, "CoSimulation", &end);
    if (!cs || !attribute(cs, end, "modelIdentifier", identifier, sizeof identifier)) {
        fprintf(stderr, "FAIL: no <CoSimulation modelIdentifier=...> in %s\n", path);
        free(xml);
        return 1;
    }
    int ok = strncmp(version, "3.", 2) == 0;
    if (!ok) fprintf(stderr, "FAIL: fmiVersion=\"%s\", expected 3.0\n", version);
    for (int i = 0; i < N_VARS; i++) {
        if (!scanFloat64(xml, &vars[i])) {
            fprintf(stderr, "FAIL: <Float64 name=\"%s\"> not found in %s\n", vars[i].name, path);
            ok = 0;
        }
    }
    free(xml);
    if (!ok) return 1;
    printf("fmiVersion %s, modelIdentifier %s, instantiationToken %s\n", version, identifier, token);

    char resources[PATH_MAX + 16];
    /* FMI 3.0: a path, not a URI, ending in a separator */
    snprintf(resources, sizeof resources, "%s%cresources%c", root, PATH_SEP, PATH_SEP);
    if ((size_t)snprintf(path, sizeof path, "%s%cbinaries%c" PLATFORM_FMI3 "%c%s" LIBRARY_EXT, root, PATH_SEP,
                         PATH_SEP, PATH_SEP, identifier) >= sizeof path) {
        fprintf(stderr, "FAIL: path of the binary too long\n");
        return 1;
    }
    Binary b;
    if (!loadBinary(&b, path)) return 1;
    {
        /* The token of another FMU is refused: no instance, and a message why. */
        static const char wrong[] = "wrong";
        int before = nErrorMessages;
        fmi3Instance c = b.instantiate(wrong, "{not-this-fmu}", resources, false, false, false, false, NULL, 0,
                                       (void *)wrong, logMessage, NULL);
        if (c || nErrorMessages == before) {
            fprintf(stderr, "FAIL: fmi3InstantiateCoSimulation with a wrong token returned %p with %d messages\n",
                    c, nErrorMessages - before);
            if (c) b.freeInstance(c);
            ok = 0;
        } else {
            printf("a wrong instantiationToken is refused with a message\n");
        }
    }
    if (!simulate(&b, token, resources, seconds)) ok = 0;
    if (libraryClose(b.handle) != 0) {
        fprintf(stderr, "FAIL: unloading: %s\n", libraryError());
        ok = 0;
    }
    printf("reloading after unloading\n");
    if (!loadBinary(&b, path)) return 1;
    if (!simulate(&b, token, resources, 1.0)) ok = 0;

    Job jobs[2] = {{&b, token, resources, 0}, {&b, token, resources, 0}};
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
    if (started == 2 && (!jobs[0].ok || !jobs[1].ok)) {
        fprintf(stderr, "FAIL: two instances on two threads: ok %d/%d\n", jobs[0].ok, jobs[1].ok);
        ok = 0;
    } else if (started == 2) {
        printf("two instances on two threads passed\n");
    }

    if (tracePath) {
        FILE *trace = fopen(tracePath, "w");
        if (!trace) {
            perror(tracePath);
            return 1;
        }
        if (!trolleyMove(&b, token, resources, trace)) ok = 0;
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
