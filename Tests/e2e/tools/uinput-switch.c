// A uinput switch device for the end-to-end tier, and a reader that waits for its events.
//
//   uinput-switch create FIFO              create "foldcam test switches" (EV_SW: SW_LID,
//                                          SW_TABLET_MODE), print its /dev/input/eventN, then
//                                          apply commands read from FIFO, one per line:
//                                          "lid 0|1", "tablet 0|1", "quit"
//   uinput-switch wait DEV lid|tablet VALUE TIMEOUT_MS [READY_FILE]
//                                          open DEV (creating READY_FILE once it is open), exit 0
//                                          when an EV_SW event sets the switch to VALUE, 1 on timeout
//   uinput-switch state DEV                print "lid=V tablet=V" from EVIOCGSW
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>

static void die(const char *what) {
    fprintf(stderr, "uinput-switch: %s: %s\n", what, strerror(errno));
    exit(2);
}

static int switch_code(const char *name) {
    if (strcmp(name, "lid") == 0) return SW_LID;
    if (strcmp(name, "tablet") == 0) return SW_TABLET_MODE;
    fprintf(stderr, "uinput-switch: unknown switch %s (lid or tablet)\n", name);
    exit(2);
}

static void emit(int fd, int type, int code, int value) {
    struct input_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.code = code;
    ev.value = value;
    if (write(fd, &ev, sizeof ev) != sizeof ev) die("write event");
}

static int create(const char *fifo_path) {
    int fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
    if (fd < 0) die("open /dev/uinput");
    if (ioctl(fd, UI_SET_EVBIT, EV_SW) < 0) die("UI_SET_EVBIT");
    if (ioctl(fd, UI_SET_SWBIT, SW_LID) < 0) die("UI_SET_SWBIT lid");
    if (ioctl(fd, UI_SET_SWBIT, SW_TABLET_MODE) < 0) die("UI_SET_SWBIT tablet");
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0xf01d;
    setup.id.product = 0x0001;
    snprintf(setup.name, sizeof setup.name, "foldcam test switches");
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) die("UI_DEV_SETUP");
    if (ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE");

    char sysname[64] = "";
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sysname), sysname) < 0) die("UI_GET_SYSNAME");
    char dir_path[128];
    snprintf(dir_path, sizeof dir_path, "/sys/devices/virtual/input/%s", sysname);
    DIR *dir = opendir(dir_path);
    if (!dir) die(dir_path);
    struct dirent *entry;
    int found = 0;
    while ((entry = readdir(dir))) {
        if (strncmp(entry->d_name, "event", 5) == 0) {
            printf("/dev/input/%s\n", entry->d_name);
            found = 1;
        }
    }
    closedir(dir);
    if (!found) { errno = ENOENT; die("no event node"); }
    fflush(stdout);

    // O_RDWR keeps a writer open ourselves, so the FIFO never reports end-of-file.
    FILE *commands = fopen(fifo_path, "r+");
    if (!commands) die(fifo_path);
    char line[128];
    while (fgets(line, sizeof line, commands)) {
        char name[32];
        int value;
        if (strncmp(line, "quit", 4) == 0) break;
        if (sscanf(line, "%31s %d", name, &value) != 2) {
            fprintf(stderr, "uinput-switch: ignoring command: %s", line);
            continue;
        }
        emit(fd, EV_SW, switch_code(name), value ? 1 : 0);
        emit(fd, EV_SYN, SYN_REPORT, 0);
    }
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    return 0;
}

static long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static int wait_for(const char *dev, const char *name, int value, long timeout_ms, const char *ready) {
    int code = switch_code(name);
    int fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) die(dev);
    if (ready) {
        int r = open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (r < 0) die(ready);
        close(r);
    }
    long deadline = now_ms() + timeout_ms;
    for (;;) {
        long left = deadline - now_ms();
        if (left <= 0) break;
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR) die("poll");
        struct input_event ev;
        while (read(fd, &ev, sizeof ev) == sizeof ev) {
            if (ev.type == EV_SW && ev.code == code && ev.value == value) {
                printf("%s %d\n", name, value);
                return 0;
            }
        }
    }
    fprintf(stderr, "uinput-switch: no %s=%d event on %s within %ld ms\n", name, value, dev, timeout_ms);
    return 1;
}

static int state(const char *dev) {
    int fd = open(dev, O_RDONLY | O_CLOEXEC);
    if (fd < 0) die(dev);
    unsigned long bits[(SW_MAX + 8 * sizeof(long)) / (8 * sizeof(long))];
    memset(bits, 0, sizeof bits);
    if (ioctl(fd, EVIOCGSW(sizeof bits), bits) < 0) die("EVIOCGSW");
    const size_t word = 8 * sizeof(long);
    printf("lid=%lu tablet=%lu\n", (bits[SW_LID / word] >> (SW_LID % word)) & 1,
           (bits[SW_TABLET_MODE / word] >> (SW_TABLET_MODE % word)) & 1);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "create") == 0) return create(argv[2]);
    if ((argc == 6 || argc == 7) && strcmp(argv[1], "wait") == 0)
        return wait_for(argv[2], argv[3], atoi(argv[4]), atol(argv[5]), argc == 7 ? argv[6] : NULL);
    if (argc == 3 && strcmp(argv[1], "state") == 0) return state(argv[2]);
    fprintf(stderr, "usage: uinput-switch create FIFO | wait DEV lid|tablet VALUE TIMEOUT_MS [READY_FILE] | state DEV\n");
    return 2;
}
