#ifndef CSYSTEM_H
#define CSYSTEM_H
// Linux and glibc calls that Swift's Glibc module does not import (they sit behind feature macros or in
// headers it leaves out): signalfd for the poll loop, epoll to wait on two sockets as one, and mallopt.
// Pass-throughs only.

#include <signal.h>

extern const int csystem_sfd_nonblock;
extern const int csystem_sfd_cloexec;
/// sizeof(struct signalfd_siginfo); the signal number is its first field (uint32_t ssi_signo).
extern const int csystem_signalfd_siginfo_size;

int csystem_signalfd(int fd, const sigset_t *mask, int flags);

/// epoll_create1(EPOLL_CLOEXEC).
int csystem_epoll_create(void);
/// epoll_ctl(EPOLL_CTL_ADD) of `fd` for EPOLLIN (level-triggered): `epfd` is readable while `fd` is.
int csystem_epoll_watch(int epfd, int fd);

/// mallopt(M_MMAP_THRESHOLD, bytes) on glibc (malloc.h, which the Glibc module leaves out); 1 and nothing done elsewhere.
int csystem_mmap_threshold(int bytes);

#endif
