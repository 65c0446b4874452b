#define _GNU_SOURCE
#include "chci_posix.h"

#include <stddef.h>
#include <stdlib.h>
#include <sys/signalfd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

_Static_assert(sizeof(struct signalfd_siginfo) == 128, "signalfd_siginfo is 128 bytes");
_Static_assert(offsetof(struct signalfd_siginfo, ssi_signo) == 0, "ssi_signo comes first");

const int chci_sfd_nonblock = SFD_NONBLOCK;
const int chci_sfd_cloexec = SFD_CLOEXEC;
const int chci_signalfd_siginfo_size = sizeof(struct signalfd_siginfo);

int chci_signalfd(int fd, const sigset_t *mask, int flags) { return signalfd(fd, mask, flags); }

int chci_posix_openpt(int flags) { return posix_openpt(flags); }
int chci_grantpt(int fd) { return grantpt(fd); }
int chci_unlockpt(int fd) { return unlockpt(fd); }
int chci_ptsname_r(int fd, char *buf, size_t length) { return ptsname_r(fd, buf, length); }

#ifdef __GLIBC__
int chci_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#else
int chci_mmap_threshold(int bytes) { (void)bytes; return 1; }
#endif
