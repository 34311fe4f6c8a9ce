/*
 * Test-only LD_PRELOAD shim: libv4l2 makes its device calls through syscall(2) (SYS_openat,
 * SYS_ioctl, ...), which umockdev's preload library cannot see. This routes those calls back
 * through the libc functions, so umockdev (preloaded after this shim) answers them: the probe
 * under test still goes through libv4l2 exactly as in production.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

long syscall(long number, ...)
{
    va_list ap;
    long a[6];
    va_start(ap, number);
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);

    switch (number) {
#ifdef SYS_open
    case SYS_open:
        return open((const char *)a[0], (int)a[1], (mode_t)a[2]);
#endif
    case SYS_openat:
        /* umockdev attaches its ioctl emulation in open(), not openat(). */
        if ((int)a[0] == AT_FDCWD)
            return open((const char *)a[1], (int)a[2], (mode_t)a[3]);
        return openat((int)a[0], (const char *)a[1], (int)a[2], (mode_t)a[3]);
    case SYS_ioctl:
        return ioctl((int)a[0], (unsigned long)a[1], (void *)a[2]);
    case SYS_close:
        return close((int)a[0]);
    case SYS_read:
        return read((int)a[0], (void *)a[1], (size_t)a[2]);
    case SYS_write:
        return write((int)a[0], (const void *)a[1], (size_t)a[2]);
    default: {
        static long (*real)(long, ...);
        if (!real)
            real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
        return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
    }
    }
}
