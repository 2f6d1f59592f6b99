#include <stdbool.h>

/* is_sep reports whether c separates path elements. */
bool is_sep(char c)
{
#ifdef _WIN32
    return c == '\\' || c == '/'; // osbench:target
#else
    return c == '/';
#endif
}
