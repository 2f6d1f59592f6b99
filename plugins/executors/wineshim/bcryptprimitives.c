/*
 * A stand-in for Windows' bcryptprimitives.dll with the one export Go needs.
 *
 * Since Go 1.22 the runtime of every windows/amd64 Go program imports
 * ProcessPrng from bcryptprimitives.dll and cannot start without it. Wine 8
 * ships no such DLL, so osbench compiles this file with mingw-w64 into the
 * system32 directory of the Wine prefix it owns.
 *
 * The random bytes come from RtlGenRandom (exported by advapi32 as
 * SystemFunction036), which Wine implements on the host's random source.
 */
#include <windows.h>
#include <ntsecapi.h>

/*
 * ProcessPrng fills data with size random bytes. Real Windows documents it
 * as never failing; here it returns FALSE if RtlGenRandom ever does, so a
 * caller that checks the result (Go does) sees the failure instead of
 * using a buffer that was never filled.
 */
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
    /* RtlGenRandom takes a ULONG length, 32 bits even on 64-bit Windows. */
    const SIZE_T max_chunk = 0x80000000u;

    while (size > 0) {
        ULONG chunk = (ULONG)(size < max_chunk ? size : max_chunk);
        if (!RtlGenRandom(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        size -= chunk;
    }
    return TRUE;
}
