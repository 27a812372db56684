#include <stdlib.h>
#include "fmi2_types.h"

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

#include "fmi3_types.h"

/* FMI 3.0's log callback takes the message as is (it is not a format). */
void cablefmu_log3(fmi3LogMessageCallback logger, cablefmu_ref env, fmi3Status status,
                   fmi3String category, fmi3String message) {
	if (logger != NULL) {
		logger((fmi3InstanceEnvironment)env, status, category, message);
	}
}

const char *cablefmu_version3(void) { return "3.0"; }

#ifdef _WIN32
#include <windows.h>

/* A Go runtime cannot be unloaded: once started (as this DLL loads) its
 * threads run the DLL's code until the process ends. FreeLibrary of the
 * last reference would unmap that code under them. Pinning the module
 * (GetModuleHandleEx with GET_MODULE_HANDLE_EX_FLAG_PIN, found from the
 * address of this function) makes the loader keep it loaded until the
 * process exits, whatever FreeLibrary calls follow: the counterpart of
 * -z nodelete on Linux. It runs as a constructor, from the C runtime's
 * DllMain at load, before any FMI function can be called. Pinning takes
 * no new reference to another library, which DllMain must not do. */
__attribute__((constructor)) static void cablefmu_pin(void) {
	HMODULE self;
	/* It fails only for an address outside every module, which this
	 * function's own is not; there would be nothing better to do at load
	 * than to go on unpinned. */
	(void)GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_PIN | GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS,
	                         (LPCWSTR)(void *)&cablefmu_pin, &self);
}
#endif
