/* Functions of the coverage stub; see calc.c. */
#ifndef CALC_H
#define CALC_H

int add(int a, int b);
int classify(int n);
const char *path_separator(void);

#ifdef __cplusplus
extern "C" {
#endif
int guarded(int n); /* in guard.cc */
#ifdef __cplusplus
}
#endif

/* Defined in the header, so its lines are reported for calc.h. */
static inline int twice(int n) {
    return 2 * n;
}

#endif
