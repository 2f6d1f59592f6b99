/* One test program, told by its argument which outcome to produce. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "pass";
    printf("stub %s\n", what);
    fflush(stdout);
    if (strcmp(what, "fail") == 0) {
        return 1;
    }
    if (strcmp(what, "segv") == 0) {
        raise(SIGSEGV);
    }
    if (strcmp(what, "abort") == 0) {
        abort();
    }
    if (strcmp(what, "hang") == 0) {
        sleep(60);
    }
    if (strcmp(what, "skip") == 0) {
        return 77;
    }
    return 0;
}
