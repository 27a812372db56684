/*
 * A stand-in for Windows' bcryptprimitives.dll, for tests under Wine only.
 *
 * The Go runtime (1.22 and later) loads bcryptprimitives.dll from the
 * system folder as it starts and takes its random numbers from
 * ProcessPrng. Windows 10 and 11 have it; Debian's Wine 8.0 does not, and a
 * Go DLL then stops with "bcryptprimitives.dll not found". The Wine test
 * puts this DLL into its own Wine prefix: ProcessPrng over RtlGenRandom
 * (advapi32's SystemFunction036), which Wine has. The FMUs never ship or
 * need it.
 *
 *   x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        length -= n;
    }
    return TRUE;
}
