#include <stdlib.h>
#include "fmi2types.h"

/* The FMI logger is variadic and formats its message printf-style: pass the
 * already formatted message as the argument of "%s" so that a '%' in it is
 * never read as a conversion. Go cannot call variadic C functions. */
void cablefmu_log(fmi2CallbackLogger logger, fmi2ComponentEnvironment env, fmi2String instanceName,
                  fmi2Status status, fmi2String category, fmi2String message) {
	if (logger != NULL) {
		logger(env, instanceName, status, category, "%s", message);
	}
}

cablefmuInstance *cablefmu_new_instance(uintptr_t handle) {
	cablefmuInstance *c = malloc(sizeof *c);
	if (c != NULL) {
		c->magic = CABLEFMU_MAGIC;
		c->handle = handle;
	}
	return c;
}

int cablefmu_instance_handle(fmi2Component c, uintptr_t *handle) {
	cablefmuInstance *inst = c;
	if (inst == NULL || inst->magic != CABLEFMU_MAGIC) {
		return 0;
	}
	*handle = inst->handle;
	return 1;
}

void cablefmu_free_instance(fmi2Component c) {
	cablefmuInstance *inst = c;
	if (inst != NULL) {
		inst->magic = 0; /* catches a stale handle while the block is not reused */
		free(inst);
	}
}

fmi2CallbackLogger cablefmu_callbacks_logger(const fmi2CallbackFunctions *f) { return f == NULL ? NULL : f->logger; }
fmi2ComponentEnvironment cablefmu_callbacks_env(const fmi2CallbackFunctions *f) { return f == NULL ? NULL : f->componentEnvironment; }

const char *cablefmu_types_platform(void) { return "default"; }
const char *cablefmu_version(void) { return "2.0"; }
