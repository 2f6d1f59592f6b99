/*
 * cpath: small path helpers whose rules depend on the operating system.
 *
 * On Windows both '\\' and '/' separate components, a path may start with a
 * drive letter ("C:") or a UNC prefix ("\\\\server\\share"), and new paths
 * are joined with '\\'. On POSIX systems only '/' separates and paths are
 * absolute when they start with it.
 */
#ifndef CPATH_H
#define CPATH_H

#include <stddef.h>

/* CPATH_SEP is the separator cpath_join and cpath_normalize write. */
#ifdef _WIN32
#define CPATH_SEP '\\'
#else
#define CPATH_SEP '/'
#endif

/* Returns 1 when c separates path components on this system. */
int cpath_is_sep(char c);

/* Returns 1 when path is absolute on this system. */
int cpath_is_absolute(const char *path);

/*
 * Returns the drive letter of path in upper case ('C' for "c:\\x"), or 0
 * when the path names no drive (always 0 on POSIX).
 */
char cpath_drive(const char *path);

/*
 * Writes dir and name joined by one separator into out (size bytes).
 * Returns the length written, or -1 when out is too small.
 */
int cpath_join(char *out, size_t size, const char *dir, const char *name);

/*
 * Writes path into out (size bytes) with native separators, runs of
 * separators collapsed to one and, on Windows, the drive letter in upper
 * case. Returns the length written, or -1 when out is too small.
 */
int cpath_normalize(char *out, size_t size, const char *path);

/* Returns a pointer to the last component of path (after the last separator). */
const char *cpath_basename(const char *path);

/* What a path names, as cpath_kind reports it. */
enum cpath_kind {
    CPATH_MISSING = 0,
    CPATH_FILE = 1,
    CPATH_DIR = 2
};

/* Asks the operating system what path names. */
enum cpath_kind cpath_kind(const char *path);

/*
 * Writes the directory for temporary files into out (size bytes), without a
 * trailing separator. Returns the length written, or -1 when it is unknown
 * or out is too small.
 */
int cpath_temp_dir(char *out, size_t size);

#endif
