/* Functions of the coverage stub; see calc.c. */
#ifndef CALC_H
#define CALC_H

int add(int a, int b);
int classify(int n);
const char *path_separator(void);

/* Defined in the header, so its lines are reported for calc.h. */
static inline int twice(int n) {
    return 2 * n;
}

#endif
