// Runs the one case named on the command line (see CMakeLists.txt).
#include <cstring>
#include <iostream>

#include "check.hpp"

int check_failures = 0;

void test_eol_native();
void test_eol_detect();
void test_eol_write();
void test_eol_read();
void test_widen_ascii();
void test_widen_non_bmp();
void test_widen_invalid();
void test_narrow_roundtrip();
void test_narrow_invalid();
void test_save_crlf();
void test_save_unicode_name();
void test_load_missing();

namespace {

struct test_case {
    const char* name;
    void (*run)();
};

const test_case cases[] = {
    {"eol_native", test_eol_native},
    {"eol_detect", test_eol_detect},
    {"eol_write", test_eol_write},
    {"eol_read", test_eol_read},
    {"widen_ascii", test_widen_ascii},
    {"widen_non_bmp", test_widen_non_bmp},
    {"widen_invalid", test_widen_invalid},
    {"narrow_roundtrip", test_narrow_roundtrip},
    {"narrow_invalid", test_narrow_invalid},
    {"save_crlf", test_save_crlf},
    {"save_unicode_name", test_save_unicode_name},
    {"load_missing", test_load_missing},
};

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::cerr << "usage: " << argv[0] << " CASE\n";
        return 2;
    }
    for (const test_case& c : cases) {
        if (std::strcmp(c.name, argv[1]) == 0) {
            c.run();
            return check_failures == 0 ? 0 : 1;
        }
    }
    std::cerr << "unknown case " << argv[1] << "\n";
    return 2;
}
