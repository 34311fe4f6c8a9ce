// libinput for FoldcamDevices' switch source. Only declarations and prefixed constants.
#ifndef FOLDCAM_CLIBINPUT_H
#define FOLDCAM_CLIBINPUT_H

#include <libinput.h>
#include <fcntl.h>

// The open_restricted callback gets open(2) flags; O_CLOEXEC is a macro Swift may not see.
static const int clibinput_O_CLOEXEC = O_CLOEXEC;

// open(2) is variadic in C; this fixed-signature call is what the open_restricted callback uses.
static inline int clibinput_open(const char *path, int flags) { return open(path, flags); }

#endif
