// A minimal test harness: no framework to download, one case per process.
#ifndef CPPENC_CHECK_HPP
#define CPPENC_CHECK_HPP

#include <iostream>

// check_failures counts failed checks of the running case.
extern int check_failures;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            std::cerr << __FILE__ << ":" << __LINE__ << ": check failed: " #cond \
                      << "\n";                                                   \
            ++check_failures;                                                    \
        }                                                                        \
    } while (0)

// ON_WINDOWS(w, p) picks the expectation of the platform the test runs on,
// so each case has one id on both platforms.
#if defined(_WIN32)
#define ON_WINDOWS(windows, posix) (windows)
#else
#define ON_WINDOWS(windows, posix) (posix)
#endif

#endif
