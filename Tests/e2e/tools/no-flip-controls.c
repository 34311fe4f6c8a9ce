// An LD_PRELOAD library for the rotation check: the process sees no V4L2_CID_HFLIP or
// V4L2_CID_VFLIP control on any device (VIDIOC_QUERYCTRL, VIDIOC_G_CTRL and VIDIOC_S_CTRL answer
// EINVAL for them), as with a camera whose sensor cannot flip itself. vivid has both controls, so
// without this foldcamd's software 180° turn is never used in the guest. Nothing else changes.
//
//   LD_PRELOAD=no-flip-controls.so foldcamd ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/videodev2.h>
#include <stdarg.h>
#include <sys/ioctl.h>

static int is_flip(__u32 id) { return id == V4L2_CID_HFLIP || id == V4L2_CID_VFLIP; }

int ioctl(int fd, unsigned long request, ...) {
    static int (*real)(int, unsigned long, ...);
    va_list args;
    va_start(args, request);
    void *argument = va_arg(args, void *);
    va_end(args);
    if (!real) real = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    if (argument && request == VIDIOC_QUERYCTRL) {
        struct v4l2_queryctrl *query = argument;
        // A plain query for a flip control fails; enumeration (NEXT_CTRL) skips past them.
        if (!(query->id & V4L2_CTRL_FLAG_NEXT_CTRL) && is_flip(query->id)) {
            errno = EINVAL;
            return -1;
        }
        int result = real(fd, request, argument);
        while (result == 0 && is_flip(query->id)) {
            query->id |= V4L2_CTRL_FLAG_NEXT_CTRL;
            result = real(fd, request, argument);
        }
        return result;
    }
    if (argument && (request == VIDIOC_S_CTRL || request == VIDIOC_G_CTRL) && is_flip(((struct v4l2_control *)argument)->id)) {
        errno = EINVAL;
        return -1;
    }
    return real(fd, request, argument);
}
