// The companion's PipeWire mechanics, in C because they are SPA pod builders, macros and
// callback tables Swift cannot call: one connection (thread loop, core, registry) and camera
// nodes that forward frames from an input stream with one copy. Decisions are Swift's
// (FoldcamPipeWire's PipeWireBridge); this only does what it is told.
#ifndef FOLDCAM_PIPEWIRE_SHIM_H
#define FOLDCAM_PIPEWIRE_SHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct fpw_connection fpw_connection;
typedef struct fpw_node fpw_node;

/// A Video/Source node appeared (or changed): its id and its properties as "key=value" lines.
typedef void (*fpw_global_fn)(void *user, uint32_t id, const char *properties);
typedef void (*fpw_global_remove_fn)(void *user, uint32_t id);
/// The connection to PipeWire failed or ended (message says why).
typedef void (*fpw_error_fn)(void *user, const char *message);
/// A node's output stream changed state: 1 while streaming (someone consumes it), else 0.
typedef void (*fpw_state_fn)(void *user, int streaming);
/// What became of an input stream (to the camera node `target`).
typedef enum {
    /// Its first frame came (`reason` is "").
    FPW_INPUT_DELIVERED,
    /// It failed before its first frame: WirePlumber would not link it, PipeWire stopped it, or
    /// the link timeout passed with no format agreed or no frame.
    FPW_INPUT_FAILED,
    /// It delivered, then sent no frame for the stall bound.
    FPW_INPUT_STALLED,
} fpw_input_event;
/// Once per event and input; after a failure or a stall the input feeds nothing more. `reason`
/// says why it failed.
typedef void (*fpw_input_fn)(void *user, const char *target, fpw_input_event event, const char *reason);

/// Connects to the user's PipeWire (thread loop started, registry watched). NULL on failure,
/// with the reason in `error`.
fpw_connection *fpw_connect(fpw_global_fn on_global, fpw_global_remove_fn on_remove, fpw_error_fn on_error,
                            void *user, char *error, size_t error_size);
void fpw_disconnect(fpw_connection *connection);
/// The PipeWire daemon's version ("0.3.65"), as its core said when the connection was made; ""
/// until then.
void fpw_server_version(fpw_connection *connection, char *version, size_t size);

/// Publishes a node: `properties` is "key=value" lines, the one format fixed (SPA video format,
/// size, frame rate). Shows the placeholder until a frame arrives.
fpw_node *fpw_node_new(fpw_connection *connection, const char *properties, uint32_t spa_video_format,
                       uint32_t width, uint32_t height, uint32_t bytes_per_pixel, uint32_t fps_num,
                       uint32_t fps_den, fpw_state_fn on_state, fpw_input_fn on_input, void *user,
                       char *error, size_t error_size);
void fpw_node_destroy(fpw_node *node);
/// The frame shown while no input delivers (copied; `size` must be width*height*bpp).
void fpw_node_set_placeholder(fpw_node *node, const uint8_t *bytes, size_t size);
/// Starts consuming the camera node named `target` in YUY2, or in RGB or BGR converted to YUY2
/// in the same copy (libcamera's vimc, many ISPs); the current input keeps feeding until the
/// new one's first frame (make before break). `transforms` is the SPA_META_VideoTransform value
/// put on the new input's frames, by the residual transform each one's own meta carries (index 0
/// when it has none): foldcam's turn after it. It takes effect with that first frame; the
/// placeholder carries none. `swap_red_blue`: the camera's RGB is really BGR and the other way
/// round (a libcamera node of PipeWire < 1.1.81: FoldcamPipeWire's LibcameraColourOrder).
/// `timeout_ms`: the bound on agreeing a format, and again on the first frame after it; past
/// it, the input is reported failed (FPW_INPUT_FAILED) and feeds nothing. `stall_ms`: after the
/// first frame, the longest gap between frames; past it (seen within a quarter more), the input
/// is reported stalled (FPW_INPUT_STALLED) and feeds nothing. While a camera delivers it drives
/// the node, so without this a camera that stops would stop the node's frames too.
/// Returns 0 or a negative errno.
int fpw_node_connect_input(fpw_node *node, const char *target, const uint32_t transforms[8], int swap_red_blue,
                           uint32_t timeout_ms, uint32_t stall_ms);
/// Replaces the transforms of the input connected last (the one still starting, if a switch is
/// under way): the same camera, turned otherwise.
void fpw_node_set_transforms(fpw_node *node, const uint32_t transforms[8]);
/// Stops consuming; the placeholder shows.
void fpw_node_disconnect_input(fpw_node *node);
/// Counters for logs and tests: frames from an input (of them, converted from RGB or BGR),
/// placeholder frames, input switches.
void fpw_node_counters(fpw_node *node, uint64_t *forwarded, uint64_t *converted, uint64_t *placeholders, uint64_t *switches);

/// SPA constants the Swift side needs (no SPA headers in Swift).
uint32_t fpw_video_format_yuy2(void);
uint32_t fpw_video_format_uyvy(void);
uint32_t fpw_video_format_rgb(void);
uint32_t fpw_video_format_bgra(void);

#endif
