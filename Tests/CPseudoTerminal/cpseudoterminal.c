#define _GNU_SOURCE
#include "cpseudoterminal.h"

#include <stdlib.h>

int cpty_posix_openpt(int flags) { return posix_openpt(flags); }
int cpty_grantpt(int fd) { return grantpt(fd); }
int cpty_unlockpt(int fd) { return unlockpt(fd); }
int cpty_ptsname_r(int fd, char *buf, size_t length) { return ptsname_r(fd, buf, length); }
