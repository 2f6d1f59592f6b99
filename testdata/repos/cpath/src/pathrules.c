/* Path rules: what separates, what is absolute, how paths are joined. */
#include "cpath.h"

#include <string.h>

int cpath_is_sep(char c)
{
#ifdef _WIN32
    return c == '\\' || c == '/';
#else
    return c == '/';
#endif
}

#ifdef _WIN32
static int is_ascii_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Drive letters compare without case; cpath reports them in upper case. */
static char upper_ascii(char c)
{
    return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
}
#endif

char cpath_drive(const char *path)
{
#ifdef _WIN32
    if (is_ascii_letter(path[0]) && path[1] == ':')
        return upper_ascii(path[0]);
#else
    (void)path;
#endif
    return 0;
}

int cpath_is_absolute(const char *path)
{
#ifdef _WIN32
    /* "C:\x" is absolute; "C:x" is relative to drive C's current directory. */
    if (cpath_drive(path))
        return cpath_is_sep(path[2]);
    /* UNC: "\\server\share". */
    return cpath_is_sep(path[0]) && cpath_is_sep(path[1]);
#else
    return path[0] == '/';
#endif
}

/* append copies src to out[*len...], keeping the terminating NUL in bounds. */
static int append(char *out, size_t size, size_t *len, const char *src, size_t n)
{
    if (*len + n + 1 > size)
        return -1;
    memcpy(out + *len, src, n);
    *len += n;
    out[*len] = '\0';
    return 0;
}

int cpath_join(char *out, size_t size, const char *dir, const char *name)
{
    size_t len = 0;
    size_t dlen = strlen(dir);
    const char sep = CPATH_SEP;

    if (size == 0)
        return -1;
    out[0] = '\0';
    while (dlen > 0 && cpath_is_sep(dir[dlen - 1]))
        dlen--;
    while (cpath_is_sep(*name))
        name++;
    if (append(out, size, &len, dir, dlen) != 0)
        return -1;
    if ((dlen > 0 || cpath_is_sep(dir[0])) && append(out, size, &len, &sep, 1) != 0)
        return -1;
    if (append(out, size, &len, name, strlen(name)) != 0)
        return -1;
    return (int)len;
}

int cpath_normalize(char *out, size_t size, const char *path)
{
    size_t len = 0;
    const char sep = CPATH_SEP;
    const char *p = path;

    if (size == 0)
        return -1;
    out[0] = '\0';
#ifdef _WIN32
    if (cpath_drive(p)) {
        char drive[2];
        drive[0] = cpath_drive(p);
        drive[1] = ':';
        if (append(out, size, &len, drive, 2) != 0)
            return -1;
        p += 2;
    } else if (cpath_is_sep(p[0]) && cpath_is_sep(p[1])) {
        /* Keep both separators of a UNC prefix ("\\\\server"). */
        const char unc[2] = {CPATH_SEP, CPATH_SEP};
        if (append(out, size, &len, unc, 2) != 0)
            return -1;
        p += 2;
    }
#endif
    for (; *p != '\0'; p++) {
        if (!cpath_is_sep(*p)) {
            if (append(out, size, &len, p, 1) != 0)
                return -1;
            continue;
        }
        if (len > 0 && out[len - 1] == sep)
            continue;
        if (append(out, size, &len, &sep, 1) != 0)
            return -1;
    }
    return (int)len;
}

const char *cpath_basename(const char *path)
{
    const char *base = path;
    const char *p;

    for (p = path; *p != '\0'; p++) {
        if (cpath_is_sep(*p))
            base = p + 1;
    }
    return base;
}
