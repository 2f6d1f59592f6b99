/* Path separators, counted the platform's way. */
#include "csep.h"

int csep_count(const char *p)
{
#ifdef _WIN32
    const char sep = '\\';
#else
    const char sep = '/';
#endif
    int n = 0;
    for (; *p != '\0'; p++)
        n += *p == sep;
    return n;
}
