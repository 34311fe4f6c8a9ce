// libinput for FoldcamDevices' switch source. Only declarations, types and prefixed constants.
// Nothing links libinput: FoldcamDevices loads it with dlopen when it first reads switches
// (Input/LibInput.swift), so these declarations serve for types and constants only.
#ifndef FOLDCAM_CLIBINPUT_H
#define FOLDCAM_CLIBINPUT_H

#include <libinput.h>
#include <fcntl.h>

// The open_restricted callback gets open(2) flags; O_CLOEXEC is a macro Swift may not see.
static const int clibinput_O_CLOEXEC = O_CLOEXEC;

// open(2) is variadic in C; this fixed-signature call is what the open_restricted callback uses.
static inline int clibinput_open(const char *path, int flags) { return open(path, flags); }

// The type of each libinput function foldcam looks up with dlsym, taken from its declaration
// above so the Swift side cannot get a signature wrong. __typeof__ is compile-time only: it
// references no symbol, so nothing needs libinput at link time.
#define CLIBINPUT_FUNCTION(name) typedef __typeof__(&libinput_##name) clibinput_##name##_fn
CLIBINPUT_FUNCTION(udev_create_context);
CLIBINPUT_FUNCTION(udev_assign_seat);
CLIBINPUT_FUNCTION(unref);
CLIBINPUT_FUNCTION(get_fd);
CLIBINPUT_FUNCTION(dispatch);
CLIBINPUT_FUNCTION(get_event);
CLIBINPUT_FUNCTION(event_destroy);
CLIBINPUT_FUNCTION(event_get_type);
CLIBINPUT_FUNCTION(event_get_device);
CLIBINPUT_FUNCTION(event_get_switch_event);
CLIBINPUT_FUNCTION(event_switch_get_switch);
CLIBINPUT_FUNCTION(event_switch_get_switch_state);
CLIBINPUT_FUNCTION(device_get_name);
CLIBINPUT_FUNCTION(device_has_capability);
CLIBINPUT_FUNCTION(device_switch_has_switch);
#undef CLIBINPUT_FUNCTION
// libinput_log_set_handler, with the handler as a plain pointer: Swift 6.3's compiler crashes
// reading back, from a module file, an imported function type that mentions va_list.
typedef void (*clibinput_log_set_handler_fn)(struct libinput *libinput, const void *log_handler);

#endif
