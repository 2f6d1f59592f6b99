/* A minimal test harness: no framework to download, one case per process. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <string.h>

/* check_failures counts failed checks of the running case. */
extern int check_failures;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                      \
            check_failures++;                                              \
        }                                                                  \
    } while (0)

#define CHECK_STR(got, want)                                               \
    do {                                                                   \
        const char *got_ = (got), *want_ = (want);                         \
        if (strcmp(got_, want_) != 0) {                                    \
            fprintf(stderr, "%s:%d: %s = \"%s\", want \"%s\"\n", __FILE__, \
                    __LINE__, #got, got_, want_);                          \
            check_failures++;                                              \
        }                                                                  \
    } while (0)

/*
 * ON_WINDOWS(w, p) picks the expectation of the platform the test runs
 * on, so each case has one id on both platforms.
 */
#ifdef _WIN32
#define ON_WINDOWS(windows, posix) (windows)
#else
#define ON_WINDOWS(windows, posix) (posix)
#endif

struct test_case {
    const char *name;
    void (*run)(void);
};

#endif
