#include "geo/shapes.h"

int main() {
    geo::Polygon triangle(3);
    int total = geo::perimeter(triangle, 2) + geo::doubled(1);
    double half = geo::doubled(0.25);
    return triangle.label(total) == "small" && half > 0 ? 0 : 1;
}
