// An LD_PRELOAD library for the virtual-camera checks: foldcamd's cameras behave like cameras
// vivid does not imitate. Each quirk is off unless its variable is set:
//
//   FOLDCAM_QUIRK_SLOW_STREAMON_MS=N  every VIDIOC_STREAMON of a capture queue takes N ms longer,
//                                     as a USB camera's start (UVC probe and commit, sensor
//                                     power-up) can; vivid starts in a few milliseconds
//   FOLDCAM_QUIRK_NO_FLIP=1           no V4L2_CID_HFLIP or V4L2_CID_VFLIP control on any device
//                                     (QUERYCTRL, G_CTRL and S_CTRL answer EINVAL; enumeration
//                                     skips them), as with a sensor that cannot flip itself
//
//   LD_PRELOAD=camera-quirks.so FOLDCAM_QUIRK_NO_FLIP=1 foldcamd ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/videodev2.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>

static int is_flip(__u32 id) { return id == V4L2_CID_HFLIP || id == V4L2_CID_VFLIP; }

static void slow_streamon(void) {
    const char *text = getenv("FOLDCAM_QUIRK_SLOW_STREAMON_MS");
    long ms = text ? atol(text) : 0;
    struct timespec left = {ms / 1000, (ms % 1000) * 1000000L};
    while (ms > 0 && nanosleep(&left, &left) != 0 && errno == EINTR) {}
}

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
    if (request == VIDIOC_STREAMON && argument && *(int *)argument == V4L2_BUF_TYPE_VIDEO_CAPTURE) slow_streamon();
    const char *no_flip = getenv("FOLDCAM_QUIRK_NO_FLIP");
    if (!argument || !no_flip || *no_flip != '1') return real(fd, request, argument);
    if (request == VIDIOC_QUERYCTRL) {
        struct v4l2_queryctrl *query = argument;
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
    if ((request == VIDIOC_S_CTRL || request == VIDIOC_G_CTRL) && is_flip(((struct v4l2_control *)argument)->id)) {
        errno = EINVAL;
        return -1;
    }
    return real(fd, request, argument);
}
