// The floor of zero-copy forwarding (issue 29 item 1): the least a program can do to forward a
// camera to v4l2loopback with no copy, for the benchmark to measure foldcamd against.
//
//   bare-loop CAMERA LOOPBACK WIDTHxHEIGHT FPS [FRAMES]
//
// Maps the loopback's output buffers (VIDIOC_REQBUFS(OUTPUT, MMAP), mmap), lets the camera
// capture into them (VIDIOC_REQBUFS(CAPTURE, USERPTR) with those addresses), then per frame:
// VIDIOC_DQBUF on the camera (blocking: no poll), VIDIOC_QBUF of the same buffer to the loopback,
// VIDIOC_QBUF back to the camera. Nothing else: no timer, no second thread, no copy.
// Prints, flushed as written:
//   start OPEN_MS STREAMON_MS   at the first frame: the camera's own start time, from its open()
//                               (and from VIDIOC_STREAMON) to its first dequeued frame; what
//                               foldcamd logs as "the camera took N ms from open to its first frame"
//   end FRAMES CPU_US_PER_FRAME after FRAMES frames (0 or absent: until SIGTERM or SIGINT), this
//                               process's CPU time (user + system) per frame since the first
//   refused STEP: STRERROR      when a call failed (exit status 1)
// Format YUYV at WIDTHxHEIGHT on both; FPS is asked of the camera (VIDIOC_S_PARM; a camera
// whose rate comes with its timings, such as vivid's HDMI input, may refuse it: not an error).
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define COUNT 4

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

static int xioctl(int fd, unsigned long request, void *arg) {
    int r;
    do r = ioctl(fd, request, arg); while (r < 0 && errno == EINTR && !stop);
    return r;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double cpu_us(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

static int refused(const char *step) {
    printf("refused %s: %s\n", step, strerror(errno));
    return 1;
}

static int set_format(int fd, unsigned type, unsigned width, unsigned height) {
    struct v4l2_format f;
    memset(&f, 0, sizeof f);
    f.type = type;
    f.fmt.pix.width = width;
    f.fmt.pix.height = height;
    f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
    f.fmt.pix.field = V4L2_FIELD_NONE;
    f.fmt.pix.bytesperline = width * 2;
    f.fmt.pix.sizeimage = width * height * 2;
    return xioctl(fd, VIDIOC_S_FMT, &f);
}

// v4l2loopback 0.12.7 offers its output side again only after a writer that called
// VIDIOC_STREAMON(OUTPUT) closes; one that only write()s (ffmpeg) never hands it back. A fresh
// opener's STREAMON (refused for want of buffers) still marks it the writer, and closing it
// hands the side back (what foldcamd's LoopbackState does).
static void claim_output_side(const char *loopback) {
    int fd = open(loopback, O_RDWR | O_NONBLOCK);
    if (fd < 0) return;
    int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    ioctl(fd, VIDIOC_STREAMON, &type);
    close(fd);
}

int main(int argc, char **argv) {
    unsigned width, height;
    if ((argc != 5 && argc != 6) || sscanf(argv[3], "%ux%u", &width, &height) != 2) {
        fprintf(stderr, "usage: bare-loop CAMERA LOOPBACK WIDTHxHEIGHT FPS [FRAMES]\n");
        return 2;
    }
    unsigned fps = (unsigned)atoi(argv[4]);
    long frames = argc == 6 ? atol(argv[5]) : 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;  // no SA_RESTART: a blocked DQBUF returns EINTR
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);

    claim_output_side(argv[2]);
    int out = open(argv[2], O_RDWR);
    if (out < 0) return refused("open(loopback)");
    if (set_format(out, V4L2_BUF_TYPE_VIDEO_OUTPUT, width, height) < 0) return refused("VIDIOC_S_FMT(loopback output)");
    struct v4l2_requestbuffers oreq = {.count = COUNT, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
    if (xioctl(out, VIDIOC_REQBUFS, &oreq) < 0) return refused("VIDIOC_REQBUFS(loopback output, MMAP)");
    unsigned count = oreq.count < COUNT ? oreq.count : COUNT;
    if (count < 2) { errno = ENOBUFS; return refused("VIDIOC_REQBUFS(loopback output) granted fewer than 2 buffers"); }
    void *map[COUNT];
    size_t length[COUNT];
    for (unsigned i = 0; i < count; i++) {
        struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
        if (xioctl(out, VIDIOC_QUERYBUF, &b) < 0) return refused("VIDIOC_QUERYBUF(loopback output)");
        length[i] = b.length;
        map[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, out, b.m.offset);
        if (map[i] == MAP_FAILED) return refused("mmap(loopback output)");
    }
    int otype = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    if (xioctl(out, VIDIOC_STREAMON, &otype) < 0) return refused("VIDIOC_STREAMON(loopback output)");

    // The camera's start: from here to its first frame.
    double opened = now_ms();
    int cam = open(argv[1], O_RDWR);
    if (cam < 0) return refused("open(camera)");
    if (set_format(cam, V4L2_BUF_TYPE_VIDEO_CAPTURE, width, height) < 0) return refused("VIDIOC_S_FMT(camera)");
    struct v4l2_streamparm parm = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
    parm.parm.capture.timeperframe.numerator = 1;
    parm.parm.capture.timeperframe.denominator = fps;
    xioctl(cam, VIDIOC_S_PARM, &parm);
    struct v4l2_requestbuffers creq = {.count = count, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_USERPTR};
    if (xioctl(cam, VIDIOC_REQBUFS, &creq) < 0) return refused("VIDIOC_REQBUFS(camera, USERPTR)");
    for (unsigned i = 0; i < count; i++) {
        struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_USERPTR};
        b.m.userptr = (unsigned long)map[i];
        b.length = length[i];
        if (xioctl(cam, VIDIOC_QBUF, &b) < 0) return refused("VIDIOC_QBUF(camera, USERPTR into a loopback buffer)");
    }
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    double streamon = now_ms();
    if (xioctl(cam, VIDIOC_STREAMON, &type) < 0) return refused("VIDIOC_STREAMON(camera)");

    double start = 0;
    long n = -1;
    while (!stop && (frames <= 0 || n < frames)) {
        // The camera's buffer index i was queued with the loopback's buffer i: the same index.
        struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_USERPTR};
        if (xioctl(cam, VIDIOC_DQBUF, &b) < 0) {
            if (stop) break;
            return refused("VIDIOC_DQBUF(camera)");
        }
        struct v4l2_buffer o = {.index = b.index, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP, .bytesused = b.bytesused};
        // A signal that stops the loop may interrupt any of the three: then it just ends.
        if (xioctl(out, VIDIOC_QBUF, &o) < 0) {
            if (stop) break;
            return refused("VIDIOC_QBUF(loopback output)");
        }
        if (xioctl(cam, VIDIOC_QBUF, &b) < 0) {
            if (stop) break;
            return refused("VIDIOC_QBUF(camera)");
        }
        if (n == -1) {
            double first = now_ms();
            printf("start %.1f %.1f\n", first - opened, first - streamon);
            start = cpu_us();
        }
        n++;
    }
    printf("end %ld %.0f\n", n, n > 0 ? (cpu_us() - start) / n : 0);
    xioctl(cam, VIDIOC_STREAMOFF, &type);
    xioctl(out, VIDIOC_STREAMOFF, &otype);
    close(cam);
    close(out);
    return 0;
}
