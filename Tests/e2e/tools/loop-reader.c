// Reads a V4L2 capture device (the virtual camera, /dev/video20) the way a video application
// does: one open, mmap streaming, frames until stopped. Logs one line per frame and every error
// or format change, so checks can tell which camera fed each frame and whether the reader ever
// noticed a switch.
//
//   loop-reader DEV LOG [SECONDS]
//
// Runs for SECONDS (0 or absent: until SIGTERM/SIGINT). LOG gets lines, flushed as written:
//   format W H FOURCC SIZEIMAGE          once, after the first G_FMT
//   streamon T                           once, when VIDIOC_STREAMON returned (T as below)
//   frame N T COLOUR uniform|mixed Y U V W SEQ HASH [late] done=DONE
//                                        T = when DQBUF returned, CLOCK_REALTIME seconds with
//                                        microseconds (the format of bash's $EPOCHREALTIME);
//                                        W, SEQ = the buffer's timestamp and sequence number.
//                                        v4l2loopback sets them when the producer write()s the
//                                        frame (W on CLOCK_MONOTONIC, SEQ counting writes); a
//                                        frame it repeats for sustain_framerate keeps both;
//                                        HASH = FNV-1a (32 bits, hex) of the frame's bytes, taken
//                                        right after DQBUF: two readers' frames of one SEQ differ
//                                        only if the buffer was refilled meanwhile; " late"
//                                        follows when hashing took over 20 ms (stopped, starved);
//                                        DONE = when hashing ended, CLOCK_MONOTONIC (W's clock)
//   formatchange W H FOURCC SIZEIMAGE    G_FMT (polled every 10 frames) differs from the first
//   error WHAT: STRERROR                 a failed call (the reader retries after 100 ms)
//   stall MS                             poll() saw no frame for MS milliseconds
//   end FRAMES ERRORS
// LOOP_READER_DELAY_MS=N in the environment: a slow reader, sleeping N ms after each frame.
// COLOUR is the nearest BT.601 limited-range colour of the frame's mean (tools/frame-colours
// names the same colours), "darkgrey" for foldcamd's "camera unavailable" frame, "other" if none
// is within 30. Exits 2 when it cannot even start (no device, no capture format).
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;
static void on_signal(int sig) { (void)sig; stopping = 1; }

static const struct { const char *name; double y, u, v; } colours[] = {
    {"black", 16, 128, 128},  {"white", 235, 128, 128}, {"red", 81, 90, 240},
    {"green", 145, 54, 34},   {"blue", 41, 240, 110},   {"yellow", 210, 16, 146},
    {"cyan", 170, 166, 16},   {"magenta", 106, 202, 222}, {"darkgrey", 50, 128, 128},
};

static FILE *logf_;
static unsigned long errors;

// CLOCK_REALTIME, so times compare with bash's $EPOCHREALTIME (the guest has no NTP to jump it).
static unsigned long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static void logerr(const char *what) {
    errors++;
    fprintf(logf_, "error %s: %s\n", what, strerror(errno));
    fflush(logf_);
}

static int xioctl(int fd, unsigned long request, void *arg) {
    int r;
    do r = ioctl(fd, request, arg); while (r < 0 && errno == EINTR);
    return r;
}

static unsigned fnv1a(const unsigned char *p, size_t size) {
    unsigned h = 2166136261u;
    for (size_t i = 0; i < size; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

static void describe(const unsigned char *p, size_t size, char *out, size_t outsize) {
    // YUYV: Y at even bytes, U at 4k+1, V at 4k+3.
    int uniform = 1;
    unsigned char y0 = p[0], u0 = p[1], v0 = p[3];
    double sy = 0, su = 0, sv = 0;
    size_t n = 0;
    for (size_t i = 0; i + 3 < size; i += 4) {
        if (p[i] != y0 || p[i + 2] != y0 || p[i + 1] != u0 || p[i + 3] != v0) uniform = 0;
        if ((i / 4) % 7 == 0) {
            sy += p[i]; su += p[i + 1]; sv += p[i + 3]; n++;
        }
    }
    double my = sy / n, mu = su / n, mv = sv / n;
    const char *name = "other";
    double best = 1e9;
    for (size_t c = 0; c < sizeof colours / sizeof colours[0]; c++) {
        double d = sqrt((my - colours[c].y) * (my - colours[c].y) + (mu - colours[c].u) * (mu - colours[c].u) +
                        (mv - colours[c].v) * (mv - colours[c].v));
        if (d < best) { best = d; name = colours[c].name; }
    }
    if (best > 30) name = "other";
    snprintf(out, outsize, "%s %s %.0f %.0f %.0f", name, uniform ? "uniform" : "mixed", my, mu, mv);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: loop-reader DEV LOG [SECONDS]\n");
        return 2;
    }
    double seconds = argc == 4 ? atof(argv[3]) : 0;
    const char *delay_text = getenv("LOOP_READER_DELAY_MS");
    long delay_ms = delay_text ? atol(delay_text) : 0;
    logf_ = fopen(argv[2], "w");
    if (!logf_) { perror(argv[2]); return 2; }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    int fd = open(argv[1], O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { logerr("open"); return 2; }
    struct v4l2_format first;
    memset(&first, 0, sizeof first);
    first.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(fd, VIDIOC_G_FMT, &first) < 0) { logerr("VIDIOC_G_FMT"); return 2; }
    unsigned fourcc = first.fmt.pix.pixelformat;
    fprintf(logf_, "format %u %u %.4s %u\n", first.fmt.pix.width, first.fmt.pix.height, (char *)&fourcc,
            first.fmt.pix.sizeimage);
    fflush(logf_);

    struct v4l2_requestbuffers req;
    memset(&req, 0, sizeof req);
    req.count = 4;
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = V4L2_MEMORY_MMAP;
    if (xioctl(fd, VIDIOC_REQBUFS, &req) < 0 || req.count == 0) { logerr("VIDIOC_REQBUFS"); return 2; }
    void *addr[16];
    size_t len[16];
    unsigned count = req.count > 16 ? 16 : req.count;
    for (unsigned i = 0; i < count; i++) {
        struct v4l2_buffer b;
        memset(&b, 0, sizeof b);
        b.index = i;
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b.memory = V4L2_MEMORY_MMAP;
        if (xioctl(fd, VIDIOC_QUERYBUF, &b) < 0) { logerr("VIDIOC_QUERYBUF"); return 2; }
        len[i] = b.length;
        addr[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, b.m.offset);
        if (addr[i] == MAP_FAILED) { logerr("mmap"); return 2; }
        if (xioctl(fd, VIDIOC_QBUF, &b) < 0) { logerr("VIDIOC_QBUF"); return 2; }
    }
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(fd, VIDIOC_STREAMON, &type) < 0) { logerr("VIDIOC_STREAMON"); return 2; }

    unsigned long long start = now_ns(), last = start;
    fprintf(logf_, "streamon %llu.%06llu\n", start / 1000000000ULL, start % 1000000000ULL / 1000ULL);
    fflush(logf_);
    unsigned long frames = 0;
    char text[128];
    while (!stopping && (seconds <= 0 || now_ns() - start < (unsigned long long)(seconds * 1e9))) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int r = poll(&pfd, 1, 200);
        if (r < 0) {
            if (errno == EINTR) continue;
            logerr("poll");
            usleep(100000);
            continue;
        }
        if (r == 0 || !(pfd.revents & POLLIN)) {
            if (pfd.revents & (POLLERR | POLLHUP)) {
                errno = EIO;
                logerr("poll revents");
                usleep(100000);
            }
            continue;
        }
        struct v4l2_buffer b;
        memset(&b, 0, sizeof b);
        b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        b.memory = V4L2_MEMORY_MMAP;
        if (xioctl(fd, VIDIOC_DQBUF, &b) < 0) {
            if (errno == EAGAIN) continue;
            logerr("VIDIOC_DQBUF");
            usleep(100000);
            continue;
        }
        unsigned long long t = now_ns();
        if (t - last > 500000000ULL) fprintf(logf_, "stall %.0f\n", (t - last) / 1e6);
        last = t;
        size_t used = b.bytesused ? b.bytesused : len[b.index];
        if (used > len[b.index]) used = len[b.index];
        unsigned hash = fnv1a(addr[b.index], used);
        // Hashing that took long (the reader was stopped, or starved) proves nothing about the
        // page: such a frame is marked late.
        int late = now_ns() - t > 20000000ULL;
        struct timespec done;
        clock_gettime(CLOCK_MONOTONIC, &done);
        describe(addr[b.index], used, text, sizeof text);
        fprintf(logf_, "frame %lu %llu.%06llu %s %lld.%06ld %u %08x%s done=%lld.%06ld\n", frames, t / 1000000000ULL, (t / 1000ULL) % 1000000ULL,
                text, (long long)b.timestamp.tv_sec, (long)b.timestamp.tv_usec, b.sequence, hash, late ? " late" : "",
                (long long)done.tv_sec, done.tv_nsec / 1000);
        frames++;
        if (xioctl(fd, VIDIOC_QBUF, &b) < 0) logerr("VIDIOC_QBUF");
        if (delay_ms > 0) usleep((useconds_t)delay_ms * 1000);
        if (frames % 10 == 0) {
            struct v4l2_format now;
            memset(&now, 0, sizeof now);
            now.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
            if (xioctl(fd, VIDIOC_G_FMT, &now) < 0) {
                logerr("VIDIOC_G_FMT");
            } else if (now.fmt.pix.width != first.fmt.pix.width || now.fmt.pix.height != first.fmt.pix.height ||
                       now.fmt.pix.pixelformat != first.fmt.pix.pixelformat ||
                       now.fmt.pix.sizeimage != first.fmt.pix.sizeimage) {
                fourcc = now.fmt.pix.pixelformat;
                fprintf(logf_, "formatchange %u %u %.4s %u\n", now.fmt.pix.width, now.fmt.pix.height,
                        (char *)&fourcc, now.fmt.pix.sizeimage);
                first = now;
            }
        }
        fflush(logf_);
    }
    xioctl(fd, VIDIOC_STREAMOFF, &type);
    fprintf(logf_, "end %lu %lu\n", frames, errors);
    fclose(logf_);
    return 0;
}
