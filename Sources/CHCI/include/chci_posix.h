#ifndef CHCI_POSIX_H
#define CHCI_POSIX_H
// Linux calls that Swift's Glibc module does not import (they sit behind feature macros):
// signalfd for the poll loop, and the pseudo-terminal calls serial-line tests use. Pass-throughs only.

#include <signal.h>
#include <stddef.h>

extern const int chci_sfd_nonblock;
extern const int chci_sfd_cloexec;
/// sizeof(struct signalfd_siginfo); the signal number is its first field (uint32_t ssi_signo).
extern const int chci_signalfd_siginfo_size;

int chci_signalfd(int fd, const sigset_t *mask, int flags);

int chci_posix_openpt(int flags);
int chci_grantpt(int fd);
int chci_unlockpt(int fd);
int chci_ptsname_r(int fd, char *buf, size_t length);

/// mallopt(M_MMAP_THRESHOLD, bytes) on glibc (malloc.h, which the Glibc module leaves out); 1 and nothing done elsewhere.
int chci_mmap_threshold(int bytes);

#endif
