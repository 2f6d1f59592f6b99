/* Runs the one case named on the command line (see CMakeLists.txt). */
#include "check.h"

int check_failures;

void test_separator(void);
void test_absolute(void);
void test_drive(void);
void test_join(void);
void test_normalize(void);
void test_basename(void);
void test_kind_missing(void);
void test_kind_file(void);
void test_kind_dir(void);
void test_temp_dir(void);

static const struct test_case cases[] = {
    {"separator", test_separator},
    {"absolute", test_absolute},
    {"drive", test_drive},
    {"join", test_join},
    {"normalize", test_normalize},
    {"basename", test_basename},
    {"kind_missing", test_kind_missing},
    {"kind_file", test_kind_file},
    {"kind_dir", test_kind_dir},
    {"temp_dir", test_temp_dir},
};

int main(int argc, char **argv)
{
    size_t i;

    if (argc != 2) {
        fprintf(stderr, "usage: %s CASE\n", argv[0]);
        return 2;
    }
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(cases[i].name, argv[1]) == 0) {
            cases[i].run();
            return check_failures == 0 ? 0 : 1;
        }
    }
    fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
}
