// Linux interfaces the Swift Glibc module does not expose: epoll, eventfd, timerfd, signalfd, CPU
// affinity, mallopt and the peer-credential struct. Only declarations and prefixed constants; no code lives here.
#ifndef FOLDCAM_CLINUXSHIMS_H
#define FOLDCAM_CLINUXSHIMS_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/types.h>
#include <signal.h>
#include <malloc.h>

// mallopt and its parameters (malloc.h is not part of the Glibc module).
static const int cfoldcam_M_MMAP_THRESHOLD = M_MMAP_THRESHOLD;
static const int cfoldcam_M_TRIM_THRESHOLD = M_TRIM_THRESHOLD;

// accept4 is declared only under _GNU_SOURCE; this is glibc's own prototype.
int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

// pthread_setname_np is declared only under _GNU_SOURCE; glibc's own prototype.
#include <pthread.h>
int pthread_setname_np(pthread_t thread, const char *name);

// sched_setaffinity (and cpu_set_t) are declared only under _GNU_SOURCE: the same function, its
// mask as plain bytes, under a prefixed name bound to glibc's symbol.
int cfoldcam_sched_setaffinity(pid_t pid, size_t size, const void *mask) __asm__("sched_setaffinity");

// struct ucred needs _GNU_SOURCE, which the Glibc module was built without: mirror it.
struct cfoldcam_ucred {
    pid_t pid;
    uid_t uid;
    gid_t gid;
};
_Static_assert(sizeof(struct cfoldcam_ucred) == 12, "struct ucred layout");

static const int cfoldcam_SO_PEERCRED = SO_PEERCRED;
static const int cfoldcam_SO_PEERGROUPS = SO_PEERGROUPS;
static const int cfoldcam_EFD_NONBLOCK = EFD_NONBLOCK;
static const int cfoldcam_EFD_CLOEXEC = EFD_CLOEXEC;
static const int cfoldcam_TFD_NONBLOCK = TFD_NONBLOCK;
static const int cfoldcam_TFD_CLOEXEC = TFD_CLOEXEC;
static const int cfoldcam_SFD_NONBLOCK = SFD_NONBLOCK;
static const int cfoldcam_SFD_CLOEXEC = SFD_CLOEXEC;
static const int cfoldcam_EPOLL_CLOEXEC = EPOLL_CLOEXEC;
static const unsigned int cfoldcam_EPOLLIN = EPOLLIN;
static const unsigned int cfoldcam_EPOLLOUT = EPOLLOUT;
static const unsigned int cfoldcam_EPOLLERR = EPOLLERR;
static const unsigned int cfoldcam_EPOLLHUP = EPOLLHUP;
static const unsigned int cfoldcam_EPOLLRDHUP = EPOLLRDHUP;
// V4L2 events are signalled as priority data.
static const unsigned int cfoldcam_EPOLLPRI = EPOLLPRI;

#endif
