// An LD_PRELOAD library for the virtual-camera checks: every VIDIOC_STREAMON of a video capture
// queue takes FOLDCAM_SLOW_STREAMON_MS milliseconds longer (default 400), the way a USB camera's
// start (UVC probe and commit, sensor power-up) can take hundreds of milliseconds. vivid starts
// in a few milliseconds under a real kernel, too quickly to show whether a producer goes on
// writing frames while a camera starts. Nothing else changes.
//
//   LD_PRELOAD=slow-streamon.so foldcamd ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/videodev2.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>

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
    if (request == VIDIOC_STREAMON && argument && *(int *)argument == V4L2_BUF_TYPE_VIDEO_CAPTURE) {
        const char *text = getenv("FOLDCAM_SLOW_STREAMON_MS");
        long ms = text ? atol(text) : 400;
        struct timespec left = {ms / 1000, (ms % 1000) * 1000000L};
        while (nanosleep(&left, &left) != 0 && errno == EINTR) {}
    }
    return real(fd, request, argument);
}
