/* Forced into every C file of the Linux build (runtime/cgo's and ours)
 * with -include. The FMU's Linux binaries must load on glibc 2.17 (RHEL 7
 * and later), but linking against a newer glibc binds each function to
 * its newest version: pthread_create@GLIBC_2.34, pthread_sigmask@GLIBC_2.32
 * and so on, which an older loader refuses. glibc keeps every old version
 * of a symbol it ever exported, so binding the references to the x86-64
 * base version GLIBC_2.2.5 works on every glibc from 2.17 to today. On
 * glibc older than 2.34 these functions live in libpthread.so.0, which the
 * link therefore names as needed (see the exporter).
 *
 * The list is the functions the Go runtime and the shim import whose
 * default version is newer than 2.17; the exporter's test fails when the
 * runtime starts to import another one. */
#if defined(__linux__) && defined(__x86_64__) && !defined(__ASSEMBLER__)
__asm__(".symver pthread_attr_getstack,pthread_attr_getstack@GLIBC_2.2.5");
__asm__(".symver pthread_attr_getstacksize,pthread_attr_getstacksize@GLIBC_2.2.5");
__asm__(".symver pthread_create,pthread_create@GLIBC_2.2.5");
__asm__(".symver pthread_getattr_np,pthread_getattr_np@GLIBC_2.2.5");
__asm__(".symver pthread_key_create,pthread_key_create@GLIBC_2.2.5");
__asm__(".symver pthread_setspecific,pthread_setspecific@GLIBC_2.2.5");
__asm__(".symver pthread_sigmask,pthread_sigmask@GLIBC_2.2.5");
#endif
