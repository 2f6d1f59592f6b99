/* File-system probes: each asks the operating system's own API. */
#include "cpath.h"

#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <sys/stat.h>
#include <unistd.h>
#endif

enum cpath_kind cpath_kind(const char *path)
{
#ifdef _WIN32
    DWORD attrs = GetFileAttributesA(path);

    if (attrs == INVALID_FILE_ATTRIBUTES)
        return CPATH_MISSING;
    return (attrs & FILE_ATTRIBUTE_DIRECTORY) ? CPATH_DIR : CPATH_FILE;
#else
    struct stat st;

    if (access(path, F_OK) != 0 || stat(path, &st) != 0)
        return CPATH_MISSING;
    return S_ISDIR(st.st_mode) ? CPATH_DIR : CPATH_FILE;
#endif
}

/* copy_trimmed copies dir into out without trailing separators. */
static int copy_trimmed(char *out, size_t size, const char *dir, size_t len)
{
    while (len > 1 && cpath_is_sep(dir[len - 1]))
        len--;
    if (len == 0 || len + 1 > size)
        return -1;
    memcpy(out, dir, len);
    out[len] = '\0';
    return (int)len;
}

int cpath_temp_dir(char *out, size_t size)
{
#ifdef _WIN32
    char buf[MAX_PATH + 1];
    /* GetTempPathA checks TMP, TEMP and USERPROFILE, then the Windows
     * directory, and always ends the result with a backslash. */
    DWORD n = GetTempPathA(sizeof buf, buf);

    if (n == 0 || n > sizeof buf)
        return -1;
    return copy_trimmed(out, size, buf, n);
#else
    const char *dir = getenv("TMPDIR");

    if (dir == NULL || dir[0] == '\0')
        dir = "/tmp";
    return copy_trimmed(out, size, dir, strlen(dir));
#endif
}
