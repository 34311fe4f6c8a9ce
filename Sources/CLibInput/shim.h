// libinput for FoldcamDevices' switch source: declarations, types and one formatting helper.
// Nothing links libinput: FoldcamDevices loads it with dlopen when it first reads switches
// (Input/LibInput.swift), so these declarations serve for types and constants only.
#ifndef FOLDCAM_CLIBINPUT_H
#define FOLDCAM_CLIBINPUT_H

#include <libinput.h>
#include <stdarg.h>
#include <stdio.h>

// libinput's log handler gets a printf format and its va_list: formatting them is C's job.
static inline int clibinput_format(char *buffer, size_t size, const char *format, va_list arguments) {
    return vsnprintf(buffer, size, format, arguments);
}

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
