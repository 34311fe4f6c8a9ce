/*
 * Test-only LD_PRELOAD shim that lets libinput run under umockdev:
 * - umockdev writes no udev database, so udev_device_get_is_initialized() is false and libinput
 *   would wait for the device forever: report every device as initialized.
 * - umockdev wraps stat() but not fstat(), and its nodes are ptys, while libinput compares the
 *   opened node's st_rdev with the udev device's: remember which /dev/input path each descriptor
 *   was opened from and answer fstat() with what stat() of that path says.
 * - systemd 252's udev_device_new_from_devnum() resolves /sys/dev/char/M:m with openat()-based
 *   symlink chasing that umockdev does not redirect: resolve the link with readlink() (which
 *   umockdev redirects) and look the device up by its sysfs path instead.
 * Preload it before libumockdev-preload.so.0 (stat() and readlink() then go through umockdev).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct udev;
struct udev_device;
struct udev_device *udev_device_new_from_syspath(struct udev *udev, const char *syspath);

int udev_device_get_is_initialized(struct udev_device *device)
{
    (void)device;
    return 1;
}

struct udev_device *udev_device_new_from_devnum(struct udev *udev, char type, dev_t devnum)
{
    char link[64], target[4096], path[4200];
    snprintf(link, sizeof link, "/sys/dev/%s/%u:%u", type == 'b' ? "block" : "char", major(devnum), minor(devnum));
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 6)
        return NULL;
    target[n] = '\0';
    if (strncmp(target, "../../", 6) != 0)
        return NULL;
    snprintf(path, sizeof path, "/sys/%s", target + 6);
    return udev_device_new_from_syspath(udev, path);
}

/* Paths of descriptors opened under /dev/input, by descriptor number. */
static char *opened[1024];

int open(const char *path, int flags, ...)
{
    static int (*real)(const char *, int, ...);
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    if (!real)
        real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    int fd = real(path, flags, mode);
    if (fd >= 0 && fd < 1024) {
        free(opened[fd]);
        opened[fd] = strncmp(path, "/dev/input/", 11) == 0 ? strdup(path) : NULL;
    }
    return fd;
}

int open64(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    return open(path, flags, mode);
}

static void fake_rdev(int fd, struct stat *st)
{
    struct stat faked;
    if (fd >= 0 && fd < 1024 && opened[fd] && stat(opened[fd], &faked) == 0) {
        st->st_rdev = faked.st_rdev;
        st->st_mode = faked.st_mode;
    }
}

int fstat(int fd, struct stat *st)
{
    static int (*real)(int, struct stat *);
    if (!real)
        real = (int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
    int result = real(fd, st);
    if (result == 0)
        fake_rdev(fd, st);
    return result;
}

int fstat64(int fd, struct stat64 *st)
{
    return fstat(fd, (struct stat *)st);
}
