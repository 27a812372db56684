/* Link-time stand-in for glibc's libpthread.so.0, never shipped or loaded.
 *
 * glibc before 2.34 defines these functions in libpthread.so.0, and its
 * loader before 2.30 looks a versioned symbol up only in the library the
 * version requirement names. Linked against the machine's glibc (2.34 or
 * later), where libc.so.6 defines them, the requirement would name
 * libc.so.6 and an old loader would refuse the library ("symbol
 * pthread_create version GLIBC_2.2.5 not defined in file libc.so.6").
 * The exporter links against this stub first (pthread_stub.map gives the
 * versions), so the requirement names libpthread.so.0 as an old glibc's
 * own link would; glibc 2.34 and later keep libpthread.so.0 for exactly
 * such libraries. The bodies are never run. */
void pthread_attr_getstack(void) {}
void pthread_attr_getstacksize(void) {}
void pthread_create(void) {}
void pthread_getattr_np(void) {}
void pthread_key_create(void) {}
void pthread_setspecific(void) {}
void pthread_sigmask(void) {}
