// C++ for the coverage importers' tests: gcov marks the lines that only an
// exception reaches ("=====" and "$$$$$"), and none is thrown here.
#include <stdexcept>

#include "calc.h"

static int checked(int n) {
    if (n > 100) {
        throw std::out_of_range("too big");
    }
    return n;
}

extern "C" int guarded(int n) {
    try {
        return checked(n);
    } catch (const std::exception &) {
        return -1;
    }
}
