#include <stdlib.h>
#include "fmi2types.h"

/* The FMI logger is variadic and formats its message printf-style: pass the
 * already formatted message as the argument of "%s" so that a '%' in it is
 * never read as a conversion. Go cannot call variadic C functions. */
void cablefmu_log(fmi2CallbackLogger logger, cablefmu_ref env, fmi2String instanceName,
                  fmi2Status status, fmi2String category, fmi2String message) {
	if (logger != NULL) {
		logger((fmi2ComponentEnvironment)env, instanceName, status, category, "%s", message);
	}
}

/* A block of the process's C heap is unique among all live blocks of every
 * library loaded in the process, and it is a valid address. */
cablefmu_ref cablefmu_new_handle(void) { return (cablefmu_ref)malloc(16); }
void cablefmu_free_handle(cablefmu_ref h) { free((void *)h); }

fmi2CallbackLogger cablefmu_callbacks_logger(const fmi2CallbackFunctions *f) { return f == NULL ? NULL : f->logger; }
cablefmu_ref cablefmu_callbacks_env(const fmi2CallbackFunctions *f) { return f == NULL ? 0 : (cablefmu_ref)f->componentEnvironment; }

const char *cablefmu_types_platform(void) { return "default"; }
const char *cablefmu_version(void) { return "2.0"; }

#include "fmi3types.h"

/* FMI 3.0's log callback takes the message as is (it is not a format). */
void cablefmu_log3(fmi3LogMessageCallback logger, cablefmu_ref env, fmi3Status status,
                   fmi3String category, fmi3String message) {
	if (logger != NULL) {
		logger((fmi3InstanceEnvironment)env, status, category, message);
	}
}

const char *cablefmu_version3(void) { return "3.0"; }
