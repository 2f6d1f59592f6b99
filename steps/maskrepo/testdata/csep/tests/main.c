#include <stdio.h>

#include "csep.h"

int main(void)
{
#ifdef _WIN32
    int want = 2;
    int got = csep_count("a\\b\\c");
#else
    int want = 2;
    int got = csep_count("a/b/c");
#endif
    if (got != want) {
        printf("csep_count = %d, want %d\n", got, want);
        return 1;
    }
    return 0;
}
