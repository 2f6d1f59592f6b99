#include "shapes.h"

namespace geo {
namespace {

int clamp(int v) {
    if (v < 0) {
        return 0; // never reached by the test
    }
    return v;
}

template <typename T>
T scaled(T v, int k) {
    return v * k;
}

} // namespace

std::string Polygon::label(int scale) const {
    if (scaled(scale, 2) > scaled(10.0, 2)) {
        return "large";
    }
    return "small";
}

int perimeter(const Polygon &p, int side) {
    auto times = [&](int n) { return n * clamp(side); };
    return times(p.sides());
}

} // namespace geo
