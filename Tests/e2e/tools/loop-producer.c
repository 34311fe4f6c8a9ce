// Writes solid-colour YUYV frames to a v4l2loopback device, the way a producer application does:
// set the OUTPUT format, then write() whole frames at a steady rate.
//
//   loop-producer DEV WIDTH HEIGHT FPS COLOUR [COUNT]
//
// COLOUR is one of black white red green blue yellow cyan magenta (BT.601 limited range);
// COUNT frames are written (0 or absent: until killed). Prints "streaming WxH" after the first frame.
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what) {
    fprintf(stderr, "loop-producer: %s: %s\n", what, strerror(errno));
    exit(2);
}

static const struct { const char *name; unsigned char y, u, v; } colours[] = {
    {"black", 16, 128, 128},  {"white", 235, 128, 128}, {"red", 81, 90, 240},
    {"green", 145, 54, 34},   {"blue", 41, 240, 110},   {"yellow", 210, 16, 146},
    {"cyan", 170, 166, 16},   {"magenta", 106, 202, 222},
};

int main(int argc, char **argv) {
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: loop-producer DEV WIDTH HEIGHT FPS COLOUR [COUNT]\n");
        return 2;
    }
    unsigned width = (unsigned)atoi(argv[2]), height = (unsigned)atoi(argv[3]);
    int fps = atoi(argv[4]);
    long count = argc == 7 ? atol(argv[6]) : 0;
    int colour = -1;
    for (size_t i = 0; i < sizeof colours / sizeof colours[0]; i++)
        if (strcmp(colours[i].name, argv[5]) == 0) colour = (int)i;
    if (colour < 0 || width == 0 || height == 0 || fps <= 0) {
        fprintf(stderr, "loop-producer: bad arguments\n");
        return 2;
    }

    int fd = open(argv[1], O_RDWR | O_CLOEXEC);
    if (fd < 0) die(argv[1]);
    struct v4l2_format fmt;
    memset(&fmt, 0, sizeof fmt);
    fmt.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    fmt.fmt.pix.width = width;
    fmt.fmt.pix.height = height;
    fmt.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
    fmt.fmt.pix.field = V4L2_FIELD_NONE;
    fmt.fmt.pix.bytesperline = width * 2;
    fmt.fmt.pix.sizeimage = width * height * 2;
    fmt.fmt.pix.colorspace = V4L2_COLORSPACE_SRGB;
    if (ioctl(fd, VIDIOC_S_FMT, &fmt) < 0) die("VIDIOC_S_FMT");
    if (fmt.fmt.pix.width != width || fmt.fmt.pix.height != height ||
        fmt.fmt.pix.pixelformat != V4L2_PIX_FMT_YUYV) {
        fprintf(stderr, "loop-producer: device chose %ux%u\n", fmt.fmt.pix.width, fmt.fmt.pix.height);
        return 2;
    }
    struct v4l2_streamparm parm;
    memset(&parm, 0, sizeof parm);
    parm.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    parm.parm.output.timeperframe.numerator = 1;
    parm.parm.output.timeperframe.denominator = (unsigned)fps;
    if (ioctl(fd, VIDIOC_S_PARM, &parm) < 0) die("VIDIOC_S_PARM");

    size_t size = (size_t)width * height * 2;
    unsigned char *frame = malloc(size);
    if (!frame) die("malloc");
    for (size_t i = 0; i < size; i += 4) {
        frame[i] = colours[colour].y;
        frame[i + 1] = colours[colour].u;
        frame[i + 2] = colours[colour].y;
        frame[i + 3] = colours[colour].v;
    }

    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    long period_ns = 1000000000L / fps;
    for (long n = 0; count == 0 || n < count; n++) {
        ssize_t written = write(fd, frame, size);
        if (written != (ssize_t)size) die("write frame");
        if (n == 0) {
            // After the first frame, so a reader started now finds the device ready for capture.
            printf("streaming %ux%u\n", width, height);
            fflush(stdout);
        }
        next.tv_nsec += period_ns;
        while (next.tv_nsec >= 1000000000L) {
            next.tv_nsec -= 1000000000L;
            next.tv_sec++;
        }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {}
    }
    close(fd);
    return 0;
}
