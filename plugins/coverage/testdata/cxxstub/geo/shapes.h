// C++ for the gcov importer's tests: names with "::" (namespaces, classes,
// templates, an ABI tag with a ':' of its own, a lambda, an anonymous
// namespace), which gcov -m prints in its function and specialisation lines.
#include <string>

namespace geo {

class Polygon {
public:
    explicit Polygon(int sides) : sides_(sides) {}
    int sides() const { return sides_; }
    std::string label(int scale) const;

private:
    int sides_;
};

template <typename T>
T doubled(T v) {
    return v + v;
}

int perimeter(const Polygon &p, int side);

} // namespace geo
