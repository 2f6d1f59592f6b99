#ifndef CSEP_H
#define CSEP_H

/* csep_count returns how many of the platform's path separators p holds. */
int csep_count(const char *p);

#endif
