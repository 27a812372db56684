/* Times the FMI 2.0 round trip a co-simulation master makes every
 * communication step: fmi2SetReal (7 inputs), fmi2DoStep (one internal step
 * of 1/60 s), fmi2GetReal (11 outputs), through the C ABI of an unpacked
 * Hoist FMU.
 *
 *   gcc -O2 -o out/roundtrip scripts/bench/roundtrip.c -ldl
 *   out/roundtrip <unpacked-fmu-folder> [iterations]
 *
 * Value references are the Hoist example's port order (0..6 inputs,
 * 7..17 outputs); the GUID is read from modelDescription.xml. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *Component;
typedef int Status;
typedef struct {
	void (*logger)(void *, const char *, int, const char *, const char *, ...);
	void *(*allocate)(size_t, size_t);
	void (*release)(void *);
	void (*step_finished)(void *, int);
	void *env;
} Callbacks;

static void logger(void *env, const char *name, int status, const char *category, const char *message, ...) {
	(void)env;
	(void)message;
	fprintf(stderr, "[%s] status %d %s\n", name, status, category);
}

static char *read_guid(const char *dir) {
	char path[4096];
	snprintf(path, sizeof path, "%s/modelDescription.xml", dir);
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	char *g = strstr(buf, "guid=\"");
	if (!g) return NULL;
	g += 6;
	char *end = strchr(g, '"');
	if (!end) return NULL;
	*end = 0;
	return g;
}

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

typedef Component (*InstantiateFn)(const char *, int, const char *, const char *, const Callbacks *, int, int);
typedef Status (*SetupFn)(Component, int, double, double, int, double);
typedef Status (*ModeFn)(Component);
typedef Status (*SetRealFn)(Component, const unsigned *, size_t, const double *);
typedef Status (*GetRealFn)(Component, const unsigned *, size_t, double *);
typedef Status (*DoStepFn)(Component, double, double, int);
typedef void (*FreeFn)(Component);

#define SYM(name, type)                                        \
	type name = (type)dlsym(lib, #name);                   \
	if (!name) {                                           \
		fprintf(stderr, "missing %s\n", #name);        \
		return 1;                                      \
	}

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: %s <unpacked-fmu-folder> [iterations]\n", argv[0]);
		return 2;
	}
	long iters = argc > 2 ? atol(argv[2]) : 200000;
	char path[4096], uri[4200];
	snprintf(path, sizeof path, "%s/binaries/linux64/Hoist.so", argv[1]);
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 1; }
	SYM(fmi2Instantiate, InstantiateFn);
	SYM(fmi2SetupExperiment, SetupFn);
	SYM(fmi2EnterInitializationMode, ModeFn);
	SYM(fmi2ExitInitializationMode, ModeFn);
	SYM(fmi2SetReal, SetRealFn);
	SYM(fmi2GetReal, GetRealFn);
	SYM(fmi2DoStep, DoStepFn);
	SYM(fmi2FreeInstance, FreeFn);
	const char *guid = read_guid(argv[1]);
	if (!guid) { fprintf(stderr, "no guid in %s/modelDescription.xml\n", argv[1]); return 1; }
	snprintf(uri, sizeof uri, "file://%s/resources", argv[1]);
	Callbacks cb = {logger, calloc, free, NULL, NULL};
	Component c = fmi2Instantiate("bench", 1, guid, uri, &cb, 0, 0);
	if (!c) return 1;
	if (fmi2SetupExperiment(c, 0, 0, 0, 0, 0) || fmi2EnterInitializationMode(c) || fmi2ExitInitializationMode(c)) return 1;
	unsigned in_vr[7] = {0, 1, 2, 3, 4, 5, 6}, out_vr[11] = {7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
	double in[7] = {0, 0, 20, 0.5, 0, 0, 0}, out[11];
	const double h = 1.0 / 60;
	double t = 0, t0 = now();
	for (long i = 0; i < iters; i++) {
		in[0] = 0.5 * t;
		if (fmi2SetReal(c, in_vr, 7, in) || fmi2DoStep(c, t, h, 1) || fmi2GetReal(c, out_vr, 11, out)) {
			fprintf(stderr, "FMI error at step %ld\n", i);
			return 1;
		}
		t += h;
	}
	double dt = now() - t0;
	printf("fmi2SetReal(7) + fmi2DoStep(1/60 s) + fmi2GetReal(11): %.0f ns per round trip (%ld trips, tension %.1f N)\n",
	       1e9 * dt / iters, iters, out[3]);
	fmi2FreeInstance(c);
	return 0;
}
