#ifndef CPSEUDOTERMINAL_H
#define CPSEUDOTERMINAL_H
// The pseudo-terminal calls the serial-line tests use, which Swift's Glibc module does not import
// (they sit behind _XOPEN_SOURCE). Pass-throughs only.

#include <stddef.h>

int cpty_posix_openpt(int flags);
int cpty_grantpt(int fd);
int cpty_unlockpt(int fd);
int cpty_ptsname_r(int fd, char *buf, size_t length);

#endif
