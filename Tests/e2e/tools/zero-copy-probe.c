// Whether a camera can capture straight into v4l2loopback's own buffers (issue 14 item 5), and
// what each way of forwarding costs in CPU:
//
//   zero-copy-probe CAMERA LOOPBACK FRAMES
//
// 1. copy: the camera streams into its own MMAP buffers; each frame is write()n to the loopback
//    (the kernel copies it: what foldcamd does now).
// 2. zero-copy: the loopback's output buffers are mapped (VIDIOC_REQBUFS(OUTPUT, MMAP), mmap);
//    the camera captures into them (VIDIOC_REQBUFS(CAPTURE, USERPTR) with those addresses); each
//    captured buffer is handed to the loopback with VIDIOC_QBUF(OUTPUT), with no copy by anyone.
// Prints "zerocopy streaming" once its first frame is out, then one line per way: "copy ok FRAMES US_PER_FRAME" or "zerocopy ok FRAMES US_PER_FRAME",
// where US_PER_FRAME is this process's CPU time (user + system) per frame; or "WAY refused
// STEP: STRERROR" naming the call that failed. Format: 640x480 YUYV on both.
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define W 640
#define H 480
#define COUNT 4

static int xioctl(int fd, unsigned long request, void *arg) {
    int r;
    do r = ioctl(fd, request, arg); while (r < 0 && errno == EINTR);
    return r;
}

static double cpu_us(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
}

static int set_format(int fd, unsigned type) {
    struct v4l2_format f;
    memset(&f, 0, sizeof f);
    f.type = type;
    f.fmt.pix.width = W;
    f.fmt.pix.height = H;
    f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
    f.fmt.pix.field = V4L2_FIELD_NONE;
    f.fmt.pix.bytesperline = W * 2;
    f.fmt.pix.sizeimage = W * H * 2;
    return xioctl(fd, VIDIOC_S_FMT, &f);
}

static int refused(const char *way, const char *step) {
    printf("%s refused %s: %s\n", way, step, strerror(errno));
    return 1;
}

// Waits for and dequeues one filled capture buffer.
static int dequeue(int fd, unsigned memory, struct v4l2_buffer *b) {
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 5000) <= 0) { errno = ETIMEDOUT; return -1; }
        memset(b, 0, sizeof *b);
        b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b->memory = memory;
        if (xioctl(fd, VIDIOC_DQBUF, b) == 0) return 0;
        if (errno != EAGAIN) return -1;
    }
}

static int copy_way(const char *camera, const char *loopback, int frames) {
    int cam = open(camera, O_RDWR | O_NONBLOCK), out = open(loopback, O_RDWR);
    if (cam < 0 || out < 0) return refused("copy", "open");
    if (set_format(cam, V4L2_BUF_TYPE_VIDEO_CAPTURE) < 0) return refused("copy", "VIDIOC_S_FMT(camera)");
    if (set_format(out, V4L2_BUF_TYPE_VIDEO_OUTPUT) < 0) return refused("copy", "VIDIOC_S_FMT(loopback output)");
    struct v4l2_requestbuffers req = {.count = COUNT, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    if (xioctl(cam, VIDIOC_REQBUFS, &req) < 0) return refused("copy", "VIDIOC_REQBUFS(camera, MMAP)");
    void *map[COUNT];
    for (unsigned i = 0; i < req.count && i < COUNT; i++) {
        struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
        if (xioctl(cam, VIDIOC_QUERYBUF, &b) < 0) return refused("copy", "VIDIOC_QUERYBUF(camera)");
        map[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, cam, b.m.offset);
        if (map[i] == MAP_FAILED) return refused("copy", "mmap(camera)");
        if (xioctl(cam, VIDIOC_QBUF, &b) < 0) return refused("copy", "VIDIOC_QBUF(camera)");
    }
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(cam, VIDIOC_STREAMON, &type) < 0) return refused("copy", "VIDIOC_STREAMON(camera)");
    struct v4l2_buffer b;
    if (dequeue(cam, V4L2_MEMORY_MMAP, &b) < 0) return refused("copy", "first VIDIOC_DQBUF(camera)");
    xioctl(cam, VIDIOC_QBUF, &b);
    double start = cpu_us();
    for (int n = 0; n < frames; n++) {
        if (dequeue(cam, V4L2_MEMORY_MMAP, &b) < 0) return refused("copy", "VIDIOC_DQBUF(camera)");
        if (write(out, map[b.index], W * H * 2) != W * H * 2) return refused("copy", "write(loopback)");
        if (xioctl(cam, VIDIOC_QBUF, &b) < 0) return refused("copy", "VIDIOC_QBUF(camera)");
    }
    printf("copy ok %d %.0f\n", frames, (cpu_us() - start) / frames);
    xioctl(cam, VIDIOC_STREAMOFF, &type);
    close(cam);
    close(out);
    return 0;
}

static int zero_copy_way(const char *camera, const char *loopback, int frames) {
    int cam = open(camera, O_RDWR | O_NONBLOCK), out = open(loopback, O_RDWR);
    if (cam < 0 || out < 0) return refused("zerocopy", "open");
    if (set_format(cam, V4L2_BUF_TYPE_VIDEO_CAPTURE) < 0) return refused("zerocopy", "VIDIOC_S_FMT(camera)");
    if (set_format(out, V4L2_BUF_TYPE_VIDEO_OUTPUT) < 0) return refused("zerocopy", "VIDIOC_S_FMT(loopback output)");
    struct v4l2_requestbuffers oreq = {.count = COUNT, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
    if (xioctl(out, VIDIOC_REQBUFS, &oreq) < 0) return refused("zerocopy", "VIDIOC_REQBUFS(loopback output, MMAP)");
    unsigned count = oreq.count < COUNT ? oreq.count : COUNT;
    if (count < 2) { errno = ENOBUFS; return refused("zerocopy", "VIDIOC_REQBUFS(loopback output) granted fewer than 2 buffers"); }
    void *map[COUNT];
    size_t length[COUNT];
    for (unsigned i = 0; i < count; i++) {
        struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP};
        if (xioctl(out, VIDIOC_QUERYBUF, &b) < 0) return refused("zerocopy", "VIDIOC_QUERYBUF(loopback output)");
        length[i] = b.length;
        map[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, out, b.m.offset);
        if (map[i] == MAP_FAILED) return refused("zerocopy", "mmap(loopback output)");
    }
    int otype = V4L2_BUF_TYPE_VIDEO_OUTPUT;
    if (xioctl(out, VIDIOC_STREAMON, &otype) < 0) return refused("zerocopy", "VIDIOC_STREAMON(loopback output)");
    struct v4l2_requestbuffers creq = {.count = count, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_USERPTR};
    if (xioctl(cam, VIDIOC_REQBUFS, &creq) < 0) return refused("zerocopy", "VIDIOC_REQBUFS(camera, USERPTR)");
    for (unsigned i = 0; i < count; i++) {
        struct v4l2_buffer b = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_USERPTR};
        b.m.userptr = (unsigned long)map[i];
        b.length = length[i];
        if (xioctl(cam, VIDIOC_QBUF, &b) < 0) return refused("zerocopy", "VIDIOC_QBUF(camera, USERPTR into a loopback buffer)");
    }
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(cam, VIDIOC_STREAMON, &type) < 0) return refused("zerocopy", "VIDIOC_STREAMON(camera)");
    struct v4l2_buffer b;
    double start = 0;
    for (int n = -1; n < frames; n++) {
        if (n == 0) start = cpu_us();
        if (dequeue(cam, V4L2_MEMORY_USERPTR, &b) < 0) return refused("zerocopy", "VIDIOC_DQBUF(camera)");
        // The camera's buffer i is the loopback's buffer i: publish it, then capture into it again.
        unsigned index = 0;
        while (index < count && (unsigned long)map[index] != b.m.userptr) index++;
        if (index == count) { errno = EFAULT; return refused("zerocopy", "VIDIOC_DQBUF(camera) returned an address that is no loopback buffer"); }
        struct v4l2_buffer o = {.index = index, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP, .bytesused = b.bytesused};
        if (xioctl(out, VIDIOC_QBUF, &o) < 0) return refused("zerocopy", "VIDIOC_QBUF(loopback output)");
        if (xioctl(cam, VIDIOC_QBUF, &b) < 0) return refused("zerocopy", "VIDIOC_QBUF(camera)");
        if (n == -1) printf("zerocopy streaming\n");
    }
    printf("zerocopy ok %d %.0f\n", frames, (cpu_us() - start) / frames);
    xioctl(cam, VIDIOC_STREAMOFF, &type);
    xioctl(out, VIDIOC_STREAMOFF, &otype);
    close(cam);
    close(out);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: zero-copy-probe CAMERA LOOPBACK FRAMES\n");
        return 2;
    }
    int frames = atoi(argv[3]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    // Zero-copy first: an MMAP-streaming writer hands v4l2loopback 0.12.7's output side back when
    // it closes, a write()-only one does not (see Sources/FoldcamCapture/LoopbackState.swift).
    int failed = zero_copy_way(argv[1], argv[2], frames);
    failed |= copy_way(argv[1], argv[2], frames);
    return failed;
}
