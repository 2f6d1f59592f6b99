/* Path rules, with the expectation of each platform side by side. */
#include "check.h"
#include "cpath.h"

void test_separator(void)
{
    CHECK(cpath_is_sep('/'));
    CHECK(cpath_is_sep('\\') == ON_WINDOWS(1, 0));
    CHECK(!cpath_is_sep(':'));
}

void test_absolute(void)
{
    CHECK(cpath_is_absolute("/usr/lib") == ON_WINDOWS(0, 1));
    CHECK(cpath_is_absolute("C:\\Windows") == ON_WINDOWS(1, 0));
    CHECK(cpath_is_absolute("c:/tmp") == ON_WINDOWS(1, 0));
    CHECK(cpath_is_absolute("\\\\server\\share") == ON_WINDOWS(1, 0));
    CHECK(!cpath_is_absolute("C:relative"));
    CHECK(!cpath_is_absolute("relative/path"));
}

void test_drive(void)
{
    CHECK(cpath_drive("d:\\data") == ON_WINDOWS('D', 0));
    CHECK(cpath_drive("Z:") == ON_WINDOWS('Z', 0));
    CHECK(cpath_drive("1:\\x") == 0);
    CHECK(cpath_drive("/d:/x") == 0);
}

void test_join(void)
{
    char buf[64];

    CHECK(cpath_join(buf, sizeof buf, "dir", "file.txt") > 0);
    CHECK_STR(buf, ON_WINDOWS("dir\\file.txt", "dir/file.txt"));
    CHECK(cpath_join(buf, sizeof buf, "dir/", "/file.txt") > 0);
    CHECK_STR(buf, ON_WINDOWS("dir\\file.txt", "dir/file.txt"));
    CHECK(cpath_join(buf, sizeof buf, "a\\", "b") > 0);
    CHECK_STR(buf, ON_WINDOWS("a\\b", "a\\/b"));
    CHECK(cpath_join(buf, sizeof buf, "", "b") > 0);
    CHECK_STR(buf, "b");
    CHECK(cpath_join(buf, 4, "dir", "file") == -1);
}

void test_normalize(void)
{
    char buf[64];

    CHECK(cpath_normalize(buf, sizeof buf, "a//b/c") > 0);
    CHECK_STR(buf, ON_WINDOWS("a\\b\\c", "a/b/c"));
    CHECK(cpath_normalize(buf, sizeof buf, "c:/Users//me") > 0);
    CHECK_STR(buf, ON_WINDOWS("C:\\Users\\me", "c:/Users/me"));
    CHECK(cpath_normalize(buf, sizeof buf, "\\\\srv\\share\\\\x") > 0);
    CHECK_STR(buf, ON_WINDOWS("\\\\srv\\share\\x", "\\\\srv\\share\\\\x"));
    CHECK(cpath_normalize(buf, 3, "abcdef") == -1);
}

void test_basename(void)
{
    CHECK_STR(cpath_basename("a/b/c.txt"), "c.txt");
    CHECK_STR(cpath_basename("a\\b\\c.txt"), ON_WINDOWS("c.txt", "a\\b\\c.txt"));
    CHECK_STR(cpath_basename("plain"), "plain");
    CHECK_STR(cpath_basename("dir/"), "");
}
