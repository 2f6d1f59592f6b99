/* Code for the coverage importers' tests: lines that run, lines that never
 * run, and lines compiled on one OS only. */
#include "calc.h"

int add(int a, int b) {
    return a + b;
}

int classify(int n) {
    if (n < 0) {
        return -1;
    }
    if (n == 0) {
        return 0; /* never reached by the tests */
    }
    return 1;
}

const char *path_separator(void) {
#ifdef _WIN32
    return "\\";
#else
    return "/";
#endif
}

int unused(int n) {
    int total = 0;
    for (int i = 0; i < n; i++) {
        total += i;
    }
    return total;
}
