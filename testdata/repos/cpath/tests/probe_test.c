/* File-system probes, run in the temporary directory the OS reports. */
#include "check.h"
#include "cpath.h"

#include <stdio.h>

#ifdef _WIN32
#include <direct.h>
#include <process.h>
#define make_dir(p) _mkdir(p)
#define process_id() _getpid()
#else
#include <sys/stat.h>
#include <unistd.h>
#define make_dir(p) mkdir((p), 0700)
#define process_id() getpid()
#endif

/* scratch_path names an entry of the temp dir unique to this process. */
static int scratch_path(char *out, size_t size, const char *stem)
{
    char dir[512], name[64];

    if (cpath_temp_dir(dir, sizeof dir) < 0)
        return -1;
    snprintf(name, sizeof name, "cpath-%s-%d", stem, (int)process_id());
    return cpath_join(out, size, dir, name);
}

void test_kind_missing(void)
{
    char path[600];

    CHECK(scratch_path(path, sizeof path, "missing") > 0);
    CHECK(cpath_kind(path) == CPATH_MISSING);
}

void test_kind_file(void)
{
    char path[600];
    FILE *f;

    CHECK(scratch_path(path, sizeof path, "file") > 0);
    f = fopen(path, "w");
    CHECK(f != NULL);
    if (f == NULL)
        return;
    fputs("x", f);
    fclose(f);
    CHECK(cpath_kind(path) == CPATH_FILE);
    remove(path);
}

void test_kind_dir(void)
{
    char path[600];

    CHECK(scratch_path(path, sizeof path, "dir") > 0);
    CHECK(make_dir(path) == 0);
    CHECK(cpath_kind(path) == CPATH_DIR);
#ifdef _WIN32
    _rmdir(path);
#else
    rmdir(path);
#endif
}

void test_temp_dir(void)
{
    char dir[512];
    int n = cpath_temp_dir(dir, sizeof dir);

    CHECK(n > 0);
    if (n <= 0)
        return;
    CHECK(cpath_is_absolute(dir));
    CHECK(!cpath_is_sep(dir[n - 1]));
    CHECK(cpath_kind(dir) == CPATH_DIR);
    CHECK(cpath_temp_dir(dir, 2) == -1);
}
