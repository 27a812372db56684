/* FMI 2.0 C types as used by cablefmu's C ABI, declared for this project
 * from the FMI 2.0 standard's type definitions (ABI-compatible with them).
 * Only types live here: the exported functions' prototypes come from cgo. */
#ifndef CABLEFMU_FMI2TYPES_H
#define CABLEFMU_FMI2TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;

typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment, fmi2String instanceName, fmi2Status,
                                   fmi2String category, fmi2String message, ...);
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

typedef struct {
	fmi2Boolean newDiscreteStatesNeeded;
	fmi2Boolean terminateSimulation;
	fmi2Boolean nominalsOfContinuousStatesChanged;
	fmi2Boolean valuesOfContinuousStatesChanged;
	fmi2Boolean nextEventTimeDefined;
	fmi2Real nextEventTime;
} fmi2EventInfo;

/* An instance or FMU-state handle, or the importer's environment value, as
 * cablefmu's Go code passes it: an integer of pointer size, which the C
 * calling conventions of every supported platform pass and return exactly
 * as fmi2Component, fmi2FMUstate, fmi3Instance, fmi3FMUState and the
 * environments (see package cabi's doc comment). */
typedef uintptr_t cablefmu_ref;

/* A new handle: the address of a small block of the C heap, or 0 when out
 * of memory; and its release. */
cablefmu_ref cablefmu_new_handle(void);
void cablefmu_free_handle(cablefmu_ref h);
void cablefmu_log(fmi2CallbackLogger logger, cablefmu_ref env, fmi2String instanceName,
                  fmi2Status status, fmi2String category, fmi2String message);
fmi2CallbackLogger cablefmu_callbacks_logger(const fmi2CallbackFunctions *f);
cablefmu_ref cablefmu_callbacks_env(const fmi2CallbackFunctions *f);
const char *cablefmu_types_platform(void);
const char *cablefmu_version(void);

#endif
