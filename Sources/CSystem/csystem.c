#include "csystem.h"

#include <stddef.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

_Static_assert(sizeof(struct signalfd_siginfo) == 128, "signalfd_siginfo is 128 bytes");
_Static_assert(offsetof(struct signalfd_siginfo, ssi_signo) == 0, "ssi_signo comes first");

const int csystem_sfd_nonblock = SFD_NONBLOCK;
const int csystem_sfd_cloexec = SFD_CLOEXEC;
const int csystem_signalfd_siginfo_size = sizeof(struct signalfd_siginfo);

int csystem_signalfd(int fd, const sigset_t *mask, int flags) { return signalfd(fd, mask, flags); }

int csystem_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int csystem_epoll_watch(int epfd, int fd) {
    struct epoll_event event = {.events = EPOLLIN, .data = {.fd = fd}};
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

#ifdef __GLIBC__
int csystem_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }
#else
int csystem_mmap_threshold(int bytes) { (void)bytes; return 1; }
#endif
