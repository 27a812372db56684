/*
 * What the C masters need from the operating system, for Linux and Windows:
 * loading a shared library, an absolute path, the FMU's platform folder, a
 * thread, and an atomic counter.  Everything else in the masters is plain C.
 *
 *   Linux:   gcc -O2 -o master fmi2_master.c -ldl -lpthread -lm
 *   Windows: x86_64-w64-mingw32-gcc -O2 -o master.exe fmi2_master.c
 */
#ifndef CABLEFMU_PLATFORM_H
#define CABLEFMU_PLATFORM_H

#include <stdio.h>
#include <string.h>

#ifdef _WIN32
#include <stdlib.h>
#include <windows.h>

#define PLATFORM_FMI2 "win64"
#define PLATFORM_FMI3 "x86_64-windows"
#define LIBRARY_EXT ".dll"
#define PATH_SEP '\\'
#ifndef PATH_MAX
#define PATH_MAX 1024
#endif

typedef HMODULE Library;

static inline Library libraryOpen(const char *path) { return LoadLibraryA(path); }

static inline void *librarySymbol(Library l, const char *name) {
    FARPROC p = GetProcAddress(l, name);
    void *q;
    memcpy(&q, &p, sizeof q);
    return q;
}

/* Returns 0 on success, as dlclose does. */
static inline int libraryClose(Library l) { return FreeLibrary(l) ? 0 : -1; }

static inline const char *libraryError(void) {
    static char text[64];
    snprintf(text, sizeof text, "Windows error %lu", (unsigned long)GetLastError());
    return text;
}

/* The absolute form of path, with backslashes. */
static inline int absolutePath(const char *path, char *out, size_t n) {
    return _fullpath(out, path, n) != NULL;
}

typedef struct {
    void *(*fn)(void *);
    void *arg;
    HANDLE handle;
} Thread;

static DWORD WINAPI threadMain(LPVOID p) {
    Thread *t = p;
    t->fn(t->arg);
    return 0;
}

static inline int threadStart(Thread *t, void *(*fn)(void *), void *arg) {
    t->fn = fn;
    t->arg = arg;
    t->handle = CreateThread(NULL, 0, threadMain, t, 0, NULL);
    return t->handle != NULL;
}

static inline void threadJoin(Thread *t) {
    WaitForSingleObject(t->handle, INFINITE);
    CloseHandle(t->handle);
}

#else /* POSIX */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#define PLATFORM_FMI2 "linux64"
#define PLATFORM_FMI3 "x86_64-linux"
#define LIBRARY_EXT ".so"
#define PATH_SEP '/'

typedef void *Library;

static inline Library libraryOpen(const char *path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }

/* Converts an object pointer from dlsym to a function pointer (POSIX idiom). */
static inline void *librarySymbol(Library l, const char *name) { return dlsym(l, name); }

static inline int libraryClose(Library l) { return dlclose(l); }

static inline const char *libraryError(void) {
    const char *e = dlerror();
    return e ? e : "unknown error";
}

static inline int absolutePath(const char *path, char *out, size_t n) {
    char buf[PATH_MAX];
    if (!realpath(path, buf) || strlen(buf) >= n) return 0;
    memcpy(out, buf, strlen(buf) + 1);
    return 1;
}

typedef struct {
    pthread_t handle;
} Thread;

static inline int threadStart(Thread *t, void *(*fn)(void *), void *arg) {
    return pthread_create(&t->handle, NULL, fn, arg) == 0;
}

static inline void threadJoin(Thread *t) { pthread_join(t->handle, NULL); }
#endif

/* Adds one to a counter that several threads update. */
static inline void countUp(int *counter) { __atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST); }

/* Writes the file URI of the folder dir + suffix: file:///C:/a%20b/... on
 * Windows (the drive letter after a third slash, backslashes as slashes),
 * file:///home/... on Linux, with every byte outside [A-Za-z0-9/._~-]
 * percent-encoded (but the drive letter's colon). */
static inline void fileURI(const char *dir, const char *suffix, char *out, size_t outLen) {
    static const char hex[] = "0123456789ABCDEF";
    size_t n = (size_t)snprintf(out, outLen, dir[0] == '/' ? "file://" : "file:///");
    for (int part = 0; part < 2; part++) {
        const unsigned char *s = (const unsigned char *)(part ? suffix : dir);
        for (const unsigned char *p = s; *p; p++) {
            unsigned char c = *p == '\\' ? '/' : *p;
            int drive = part == 0 && p == s + 1 && c == ':';
            int plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                        strchr("/._~-", c) != NULL || drive;
            if (n + 4 >= outLen) break;
            if (plain) {
                out[n++] = (char)c;
            } else {
                out[n++] = '%';
                out[n++] = hex[c >> 4];
                out[n++] = hex[c & 15];
            }
        }
    }
    out[n] = '\0';
}

#endif
