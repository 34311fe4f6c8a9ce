// See include/foldcam_pipewire.h. Everything here runs on PipeWire's thread loop; the public
// functions take its (recursive) lock, so Swift may call them from any thread.
#include "foldcam_pipewire.h"
#include "foldcam_frame_convert.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pipewire/pipewire.h>
#include <spa/buffer/meta.h>
#include <spa/debug/types.h>
#include <spa/param/video/format-utils.h>
#include <spa/param/video/type-info.h>
#include <spa/pod/builder.h>
#include <spa/utils/result.h>

struct fpw_connection {
    struct pw_thread_loop *loop;
    struct pw_context *context;
    struct pw_core *core;
    struct spa_hook core_listener;
    struct pw_registry *registry;
    struct spa_hook registry_listener;
    struct spa_list watched; // struct fpw_watched
    struct spa_list nodes;   // struct fpw_node, for the links to them
    fpw_global_fn on_global;
    fpw_global_remove_fn on_remove;
    fpw_error_fn on_error;
    void *user;
    char server_version[64]; // the PipeWire daemon's, from the core's info ("" until it came)
};

struct fpw_input {
    struct fpw_node *node;
    struct pw_stream *stream;
    struct spa_hook listener;
    struct pw_buffer *held; // the newest frame, kept dequeued until a newer one arrives
    uint32_t transforms[8]; // what to put on its frames, by each frame's residual transform
    ffc_layout layout;      // the negotiated format's: copied (YUYV) or converted (RGB, BGR)
    int swap_red_blue;      // its RGB and BGR are named the wrong way round (see the header)
    // Watched until its first frame: a node that is listed but cannot feed gives no other sign
    // (WirePlumber 0.4 removes the stream or leaves it paused forever; 0.5 errors it). Then
    // watched for a stall: a camera that stays linked but stops sending would stop the node's
    // frames too, since the camera drives the node's graph.
    char target[64];
    struct spa_source *timer; // the link timeout (a format, then the first frame); then the stall watch
    uint32_t timeout_ms, stall_ms;
    uint64_t last_frame_ns; // CLOCK_MONOTONIC of the newest frame
    int negotiated, delivered, failed;
};

struct fpw_node {
    struct spa_list link;
    struct fpw_connection *connection;
    struct pw_stream *output;
    struct spa_hook output_listener;
    // The node is no driver: once a camera delivers, its input joins the node's node.group, so
    // that the camera drives one graph with both streams and the reader, and one wake-up of the
    // camera's cycle runs them all (no frame clock of the node's own, no cycle of its own to
    // end). With no camera delivering, PipeWire gives the node a driver (node.want-driver).
    char group[64];
    struct spa_source *promote; // promotes a new input outside any stream callback
    uint64_t placeholder_ns;    // when the placeholder was last queued (paced to the frame rate)
    uint32_t format, width, height, stride, frame_size, fps_num, fps_den;
    uint8_t *placeholder;
    struct fpw_input *current; // feeds the output
    struct fpw_input *next;    // started, promoted at its first frame
    fpw_state_fn on_state;
    fpw_input_fn on_input;
    void *user;
    // Streaming: the output stream streams and a link leads from it (a reader). In its camera's
    // graph the node keeps running after its last reader leaves, so the state alone cannot say.
    int streaming, stream_running;
    struct pw_array readers; // the links from the node, by global id (uint32_t)
    uint64_t seq, forwarded, converted, placeholders, switches;
};

static void set_error(char *error, size_t size, const char *what, int result) {
    if (error && size) snprintf(error, size, "%s: %s", what, result ? spa_strerror(result) : "failed");
}

// MARK: connection

// A bound camera node: the registry's global properties are a subset (no api.* keys, no custom
// keys), so each Video/Source node is bound and its info's full properties reported.
struct fpw_watched {
    struct spa_list link;
    struct fpw_connection *connection;
    uint32_t id;
    struct pw_proxy *proxy;
    struct spa_hook listener;
};

static void report_properties(struct fpw_connection *c, uint32_t id, const struct spa_dict *props) {
    size_t length = 1;
    const struct spa_dict_item *item;
    spa_dict_for_each(item, props) length += strlen(item->key) + strlen(item->value ? item->value : "") + 2;
    char *text = calloc(1, length);
    if (!text) return;
    char *end = text;
    spa_dict_for_each(item, props) {
        // One line per property: a newline inside a value would split it, so it becomes a space.
        end += sprintf(end, "%s=", item->key);
        for (const char *v = item->value ? item->value : ""; *v; v++) *end++ = *v == '\n' ? ' ' : *v;
        *end++ = '\n';
    }
    *end = 0;
    c->on_global(c->user, id, text);
    free(text);
}

static void on_node_info(void *data, const struct pw_node_info *info) {
    struct fpw_watched *w = data;
    if (info && (info->change_mask & PW_NODE_CHANGE_MASK_PROPS) && info->props) report_properties(w->connection, w->id, info->props);
}

static const struct pw_node_events watched_events = {
    PW_VERSION_NODE_EVENTS,
    .info = on_node_info,
};

static void update_streaming(struct fpw_node *n);

// A link from one of the nodes: a reader.
static void on_link(struct fpw_connection *c, uint32_t id, const struct spa_dict *props) {
    const char *from = spa_dict_lookup(props, PW_KEY_LINK_OUTPUT_NODE);
    if (!from) return;
    struct fpw_node *n;
    spa_list_for_each(n, &c->nodes, link) {
        if (pw_stream_get_node_id(n->output) != (uint32_t)atoi(from)) continue;
        uint32_t *reader = pw_array_add(&n->readers, sizeof *reader);
        if (!reader) continue; // out of memory: one reader fewer counted
        *reader = id;
        update_streaming(n);
    }
}

static void on_registry_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
                               const struct spa_dict *props) {
    (void)permissions; (void)version;
    struct fpw_connection *c = data;
    if (props && strcmp(type, PW_TYPE_INTERFACE_Link) == 0) on_link(c, id, props);
    if (!props || strcmp(type, PW_TYPE_INTERFACE_Node) != 0) return;
    const char *class = spa_dict_lookup(props, PW_KEY_MEDIA_CLASS);
    if (!class || strcmp(class, "Video/Source") != 0) return;
    struct fpw_watched *w = calloc(1, sizeof *w);
    if (!w) return;
    w->connection = c;
    w->id = id;
    w->proxy = pw_registry_bind(c->registry, id, PW_TYPE_INTERFACE_Node, PW_VERSION_NODE, 0);
    if (!w->proxy) { free(w); return; }
    pw_proxy_add_object_listener(w->proxy, &w->listener, &watched_events, w);
    spa_list_append(&c->watched, &w->link);
}

static void release_watched(struct fpw_watched *w) {
    spa_list_remove(&w->link);
    spa_hook_remove(&w->listener);
    pw_proxy_destroy(w->proxy);
    free(w);
}

static void on_registry_global_remove(void *data, uint32_t id) {
    struct fpw_connection *c = data;
    struct fpw_watched *w, *t;
    spa_list_for_each_safe(w, t, &c->watched, link) {
        if (w->id == id) release_watched(w);
    }
    struct fpw_node *n;
    spa_list_for_each(n, &c->nodes, link) {
        uint32_t *reader;
        pw_array_for_each(reader, &n->readers) {
            if (*reader != id) continue;
            pw_array_remove(&n->readers, reader);
            update_streaming(n);
            break;
        }
    }
    c->on_remove(c->user, id);
}

static const struct pw_registry_events registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = on_registry_global,
    .global_remove = on_registry_global_remove,
};

static void on_core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    (void)seq;
    struct fpw_connection *c = data;
    // Only a lost connection ends it: other core errors name a proxy whose object went away
    // (a camera node removed while bound), which the registry's global_remove handles.
    if (id == PW_ID_CORE && res == -EPIPE) {
        char text[512];
        snprintf(text, sizeof text, "%s (%s)", message ? message : "error", spa_strerror(res));
        c->on_error(c->user, text);
    }
}

static void on_core_info(void *data, const struct pw_core_info *info) {
    struct fpw_connection *c = data;
    if (info && info->version) snprintf(c->server_version, sizeof c->server_version, "%s", info->version);
}

static const struct pw_core_events core_events = {
    PW_VERSION_CORE_EVENTS,
    .info = on_core_info,
    .error = on_core_error,
};

fpw_connection *fpw_connect(fpw_global_fn on_global, fpw_global_remove_fn on_remove, fpw_error_fn on_error,
                            void *user, char *error, size_t error_size) {
    pw_init(NULL, NULL);
    struct fpw_connection *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    spa_list_init(&c->watched);
    spa_list_init(&c->nodes);
    c->on_global = on_global;
    c->on_remove = on_remove;
    c->on_error = on_error;
    c->user = user;
    c->loop = pw_thread_loop_new("foldcam-pipewire", NULL);
    if (!c->loop) { set_error(error, error_size, "pw_thread_loop_new", -errno); free(c); return NULL; }
    c->context = pw_context_new(pw_thread_loop_get_loop(c->loop), NULL, 0);
    if (!c->context) { set_error(error, error_size, "pw_context_new", -errno); pw_thread_loop_destroy(c->loop); free(c); return NULL; }
    pw_thread_loop_lock(c->loop);
    int started = pw_thread_loop_start(c->loop);
    c->core = started < 0 ? NULL : pw_context_connect(c->context, NULL, 0);
    if (!c->core) {
        set_error(error, error_size, "cannot connect to PipeWire (is it running in this session? XDG_RUNTIME_DIR set?)", started < 0 ? started : -errno);
        pw_thread_loop_unlock(c->loop);
        pw_thread_loop_stop(c->loop);
        pw_context_destroy(c->context);
        pw_thread_loop_destroy(c->loop);
        free(c);
        return NULL;
    }
    pw_core_add_listener(c->core, &c->core_listener, &core_events, c);
    c->registry = pw_core_get_registry(c->core, PW_VERSION_REGISTRY, 0);
    pw_registry_add_listener(c->registry, &c->registry_listener, &registry_events, c);
    pw_thread_loop_unlock(c->loop);
    return c;
}

void fpw_disconnect(fpw_connection *c) {
    if (!c) return;
    pw_thread_loop_stop(c->loop);
    struct fpw_watched *w, *t;
    spa_list_for_each_safe(w, t, &c->watched, link) release_watched(w);
    spa_hook_remove(&c->registry_listener);
    pw_proxy_destroy((struct pw_proxy *)c->registry);
    pw_core_disconnect(c->core);
    pw_context_destroy(c->context);
    pw_thread_loop_destroy(c->loop);
    free(c);
}

// MARK: formats and params

static const struct spa_pod *video_format(struct spa_pod_builder *b, uint32_t id, const struct fpw_node *n) {
    return spa_pod_builder_add_object(b, SPA_TYPE_OBJECT_Format, id,
        SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
        SPA_FORMAT_VIDEO_format, SPA_POD_Id(n->format),
        SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&SPA_RECTANGLE(n->width, n->height)),
        SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&SPA_FRACTION(n->fps_num, n->fps_den)));
}

// What a camera node may deliver: YUY2 first (copied as it is), then the 24-bit RGB layouts
// (converted to YUY2 in the same copy), at the node's size and rate.
static const struct spa_pod *input_formats(struct spa_pod_builder *b, const struct fpw_node *n) {
    return spa_pod_builder_add_object(b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat,
        SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
        SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
        SPA_FORMAT_VIDEO_format, SPA_POD_CHOICE_ENUM_Id(4, SPA_VIDEO_FORMAT_YUY2, SPA_VIDEO_FORMAT_YUY2,
                                                        SPA_VIDEO_FORMAT_RGB, SPA_VIDEO_FORMAT_BGR),
        SPA_FORMAT_VIDEO_size, SPA_POD_Rectangle(&SPA_RECTANGLE(n->width, n->height)),
        SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&SPA_FRACTION(n->fps_num, n->fps_den)));
}

// Buffers of one block (libwebrtc reads datas[0] only), memfd or plain memory so a CPU reader
// can map them on 0.3.65; Header and VideoTransform metas. An input (`exact` 0) takes any
// stride and size, preferring `stride`: the copy reads each frame's chunk. libcamera 0.0.3's
// vimc, asked for 640x480, delivers 636x480 (its scaler's 3x ratio) in buffers of that size
// while PipeWire 0.3.65 still calls the format 640x480: a fixed size would refuse its buffers.
static void reply_buffers(struct pw_stream *stream, uint32_t stride, uint32_t height, int exact) {
    uint8_t space[1024];
    struct spa_pod_builder b = SPA_POD_BUILDER_INIT(space, sizeof space);
    const struct spa_pod *params[3];
    int32_t size = (int32_t)(stride * height);
    params[0] = exact
        ? spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
            SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(4, 2, 16),
            SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
            SPA_PARAM_BUFFERS_size, SPA_POD_Int(size),
            SPA_PARAM_BUFFERS_stride, SPA_POD_Int((int32_t)stride),
            SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemFd) | (1 << SPA_DATA_MemPtr)))
        : spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers,
            SPA_PARAM_BUFFERS_buffers, SPA_POD_CHOICE_RANGE_Int(4, 2, 16),
            SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
            SPA_PARAM_BUFFERS_size, SPA_POD_CHOICE_RANGE_Int(size, 1, INT32_MAX),
            SPA_PARAM_BUFFERS_stride, SPA_POD_CHOICE_RANGE_Int((int32_t)stride, 0, INT32_MAX),
            SPA_PARAM_BUFFERS_dataType, SPA_POD_CHOICE_FLAGS_Int((1 << SPA_DATA_MemFd) | (1 << SPA_DATA_MemPtr)));
    params[1] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
        SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
        SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_header)));
    params[2] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
        SPA_PARAM_META_type, SPA_POD_Id(SPA_META_VideoTransform),
        SPA_PARAM_META_size, SPA_POD_Int(sizeof(struct spa_meta_videotransform)));
    pw_stream_update_params(stream, params, 3);
}

static struct pw_properties *parse_properties(const char *text) {
    struct pw_properties *props = pw_properties_new(NULL, NULL);
    if (!props || !text) return props;
    const char *line = text;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        const char *equals = memchr(line, '=', length);
        if (equals) {
            char key[256];
            size_t key_length = (size_t)(equals - line);
            if (key_length < sizeof key) {
                memcpy(key, line, key_length);
                key[key_length] = 0;
                pw_properties_setf(props, key, "%.*s", (int)(length - key_length - 1), equals + 1);
            }
        }
        line += length;
        if (*line == '\n') line++;
    }
    return props;
}

// MARK: inputs

static void join_group(struct fpw_input *in);

static void input_release(struct fpw_input *in) {
    if (!in) return;
    if (in->held) pw_stream_queue_buffer(in->stream, in->held);
    in->held = NULL;
    pw_loop_destroy_source(pw_thread_loop_get_loop(in->node->connection->loop), in->timer);
    spa_hook_remove(&in->listener);
    pw_stream_destroy(in->stream);
    free(in);
}

static uint64_t monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return SPA_TIMESPEC_TO_NSEC(&now);
}

// `ms` from now, then every `every_ms` (0: once); 0 and 0 disarm.
static void arm_input_timer(struct fpw_input *in, uint32_t ms, uint32_t every_ms) {
    uint64_t ns = (uint64_t)ms * SPA_NSEC_PER_MSEC, period = (uint64_t)every_ms * SPA_NSEC_PER_MSEC;
    struct timespec value = {(time_t)(ns / SPA_NSEC_PER_SEC), (long)(ns % SPA_NSEC_PER_SEC)};
    struct timespec interval = {(time_t)(period / SPA_NSEC_PER_SEC), (long)(period % SPA_NSEC_PER_SEC)};
    pw_loop_update_timer(pw_thread_loop_get_loop(in->node->connection->loop), in->timer, &value, &interval, false);
}

static void arm_link_timeout(struct fpw_input *in) { arm_input_timer(in, in->timeout_ms ? in->timeout_ms : 1, 0); }

// Reports the input failed, once; it feeds nothing from now on (Swift decides what shows).
static void report_failure(struct fpw_input *in, fpw_input_event event, const char *reason) {
    in->failed = 1;
    arm_input_timer(in, 0, 0);
    if (in->node->on_input) in->node->on_input(in->node->user, in->target, event, reason);
}

// A failure to start. After the first frame only a stall counts: a stream that ends then does
// so because its node went away, which the registry reports.
static void input_fail(struct fpw_input *in, const char *reason) {
    if (!in->failed && !in->delivered) report_failure(in, FPW_INPUT_FAILED, reason);
}

static void on_input_timeout(void *data, uint64_t expirations) {
    (void)expirations;
    struct fpw_input *in = data;
    char reason[160];
    if (in->delivered) {
        // The stall watch, every quarter of the bound: reported within 1.25 times it.
        uint64_t quiet = monotonic_ns() - in->last_frame_ns;
        if (in->failed || quiet < (uint64_t)in->stall_ms * SPA_NSEC_PER_MSEC) return;
        snprintf(reason, sizeof reason, "it stopped sending frames (none for %.1f s)", quiet / 1e9);
        report_failure(in, FPW_INPUT_STALLED, reason);
        return;
    }
    snprintf(reason, sizeof reason, in->negotiated ? "a format was agreed, but no frame came within %.1f s"
                                                   : "no format was agreed within %.1f s (the node offers none the companion takes, or WirePlumber's link to it failed)",
             in->timeout_ms / 1000.0);
    input_fail(in, reason);
}

static void on_input_state(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error) {
    struct fpw_input *in = data;
    char reason[256];
    if (state == PW_STREAM_STATE_ERROR) {
        // WirePlumber 0.5 with node.dont-fallback: "defined target not found" when it will not
        // link the node (its media.type is not Video, say); "no more input formats" when no format fits.
        snprintf(reason, sizeof reason, "PipeWire stopped the stream: %s", error && *error ? error : "error");
        input_fail(in, reason);
    } else if (state == PW_STREAM_STATE_UNCONNECTED && old != PW_STREAM_STATE_UNCONNECTED) {
        // WirePlumber 0.4 destroys a node.dont-reconnect stream it will not link, or whose link
        // failed to agree a format.
        input_fail(in, "WirePlumber removed the stream (it would not link it to the node, or their link agreed no format)");
    }
}

static void on_input_process(void *data) {
    struct fpw_input *in = data;
    struct pw_buffer *b, *newest = NULL;
    while ((b = pw_stream_dequeue_buffer(in->stream))) {
        if (newest) pw_stream_queue_buffer(in->stream, newest);
        newest = b;
    }
    if (!newest) return;
    if (!newest->buffer->datas[0].data || !newest->buffer->datas[0].chunk->size) {
        pw_stream_queue_buffer(in->stream, newest);
        return;
    }
    if (in->held) pw_stream_queue_buffer(in->stream, in->held);
    in->held = newest;
    in->last_frame_ns = monotonic_ns();
    if (!in->delivered && !in->failed) {
        in->delivered = 1;
        uint32_t check = in->stall_ms / 4 ? in->stall_ms / 4 : 1;
        arm_input_timer(in, check, check);
        struct fpw_node *n = in->node;
        if (n->on_input) n->on_input(n->user, in->target, FPW_INPUT_DELIVERED, "");
        if (in == n->current) join_group(in);
        else if (in == n->next) {
            // Promoted on the loop, outside this callback (the old input's stream is destroyed).
            struct timespec value = {0, 1}, interval = {0, 0};
            pw_loop_update_timer(pw_thread_loop_get_loop(n->connection->loop), n->promote, &value, &interval, false);
        }
    }
}

static void on_input_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
    struct fpw_input *in = data;
    if (!param || id != SPA_PARAM_Format) return;
    struct spa_video_info_raw info;
    spa_zero(info);
    if (spa_format_video_raw_parse(param, &info) < 0) return;
    int rgb = info.format == SPA_VIDEO_FORMAT_RGB, bgr = info.format == SPA_VIDEO_FORMAT_BGR;
    // PipeWire 1.4 links a stream to a node that already runs at the node's own format, whatever
    // the stream offered (seen: NV12 at 320x240 for our YUY2, RGB or BGR at 640x480): taken as
    // YUYV it would be garbage. The size is the format's: a narrower frame under the right size
    // (libcamera 0.0.3's vimc) is the copy's business.
    int takes = rgb || bgr || info.format == SPA_VIDEO_FORMAT_YUY2;
    if (!takes || info.size.width != in->node->width || info.size.height != in->node->height) {
        char reason[200];
        const char *name = spa_debug_type_find_short_name(spa_type_video_format, info.format);
        snprintf(reason, sizeof reason, "PipeWire linked it at %s %ux%u, and the companion takes YUY2, RGB or BGR at %ux%u",
                 name ? name : "an unknown format", info.size.width, info.size.height, in->node->width, in->node->height);
        input_fail(in, reason);
        return;
    }
    if (in->swap_red_blue) { int named = rgb; rgb = bgr; bgr = named; }
    in->layout = rgb ? FFC_RGB24 : bgr ? FFC_BGR24 : FFC_YUYV;
    if (!in->negotiated && !in->delivered && !in->failed) {
        in->negotiated = 1;
        arm_link_timeout(in); // now the bound on the first frame
    }
    reply_buffers(in->stream, in->node->width * ffc_bytes_per_pixel(in->layout), in->node->height, 0);
}

// The camera node went away (or renegotiated): its buffers are freed, the held one too.
static void on_input_remove_buffer(void *data, struct pw_buffer *buffer) {
    struct fpw_input *in = data;
    if (in->held == buffer) in->held = NULL;
}

static const struct pw_stream_events input_events = {
    PW_VERSION_STREAM_EVENTS,
    .state_changed = on_input_state,
    .param_changed = on_input_param_changed,
    .remove_buffer = on_input_remove_buffer,
    .process = on_input_process,
};

// MARK: output

// Copies the input's newest frame (converted on the way when it is RGB or BGR) or the
// placeholder. Called once per cycle of the node's graph: the camera's while one delivers.
static void on_output_process(void *data) {
    struct fpw_node *n = data;
    // A stalled input's frames stop here, should it send again: Swift decides what shows.
    struct pw_buffer *source = n->current && !n->current->failed ? n->current->held : NULL;
    uint64_t now = monotonic_ns();
    if (!source) {
        // Without a camera the graph is whichever PipeWire gives the node, whose cycles can come
        // far faster than the node's frame rate (an audio device's): the placeholder goes out at
        // most once a frame period (less a quarter, for the driver's jitter).
        uint64_t period = (uint64_t)SPA_NSEC_PER_SEC * n->fps_den / (n->fps_num ? n->fps_num : 30);
        if (n->placeholder_ns && now - n->placeholder_ns < period - period / 4) return;
        n->placeholder_ns = now;
    }
    struct pw_buffer *b = pw_stream_dequeue_buffer(n->output);
    if (!b) return;
    struct spa_buffer *buffer = b->buffer;
    struct spa_data *d = &buffer->datas[0];
    if (!d->data || d->maxsize < n->frame_size) {
        pw_stream_queue_buffer(n->output, b);
        return;
    }
    if (source) {
        struct spa_data *s = &source->buffer->datas[0];
        ffc_layout layout = n->current->layout;
        uint32_t bpp = ffc_bytes_per_pixel(layout);
        // A stride narrower than the node's row is a narrower frame (vimc's 636 of 640 pixels).
        uint32_t source_stride = s->chunk->stride > 0 ? (uint32_t)s->chunk->stride : n->width * bpp;
        uint32_t source_width = source_stride / bpp;
        const uint8_t *from = (const uint8_t *)s->data + (s->chunk->offset % s->maxsize);
        uint32_t rows = n->height;
        if ((uint64_t)source_stride * rows > s->chunk->size) rows = s->chunk->size / source_stride;
        ffc_to_yuyv(layout, from, source_stride, source_width, d->data, n->stride, n->width, rows);
        if (rows < n->height) ffc_black_yuyv((uint8_t *)d->data + (size_t)rows * n->stride, n->stride, n->width, n->height - rows);
        n->forwarded++;
        if (layout != FFC_YUYV) n->converted++;
    } else {
        memcpy(d->data, n->placeholder, n->frame_size);
        n->placeholders++;
    }
    d->chunk->offset = 0;
    d->chunk->size = n->frame_size;
    d->chunk->stride = (int32_t)n->stride;
    struct spa_meta_header *header = spa_buffer_find_meta_data(buffer, SPA_META_Header, sizeof *header);
    if (header) {
        header->pts = (int64_t)now;
        header->flags = 0;
        header->seq = n->seq++;
        header->dts_offset = 0;
    }
    struct spa_meta_videotransform *transform = spa_buffer_find_meta_data(buffer, SPA_META_VideoTransform, sizeof *transform);
    if (transform) {
        // The source node's residual (what its pipeline could not apply), then foldcam's turn,
        // both the current input's: a switch changes them with the new camera's first frame.
        // The placeholder is drawn upright.
        uint32_t residual = 0;
        if (source) {
            struct spa_meta_videotransform *in = spa_buffer_find_meta_data(source->buffer, SPA_META_VideoTransform, sizeof *in);
            if (in && in->transform < 8) residual = in->transform;
        }
        transform->transform = source ? n->current->transforms[residual] : SPA_META_TRANSFORMATION_None;
    }
    pw_stream_queue_buffer(n->output, b);
}

// A new input delivers: it replaces the current one, and its camera drives the node from now on.
static void on_promote(void *data, uint64_t expirations) {
    (void)expirations;
    struct fpw_node *n = data;
    if (!n->next || !n->next->held) return;
    input_release(n->current);
    n->current = n->next;
    n->next = NULL;
    n->switches++;
    join_group(n->current);
}

// Only an input that delivers joins: a camera still starting (a switch under way) runs in its
// own graph meanwhile, so two cameras never share one.
static void join_group(struct fpw_input *in) {
    struct spa_dict_item group[] = { SPA_DICT_ITEM_INIT(PW_KEY_NODE_GROUP, in->node->group) };
    pw_stream_update_properties(in->stream, &SPA_DICT_INIT_ARRAY(group));
}

static void on_output_state(void *data, enum pw_stream_state old, enum pw_stream_state state, const char *error) {
    (void)old; (void)error;
    struct fpw_node *n = data;
    n->stream_running = state == PW_STREAM_STATE_STREAMING;
    update_streaming(n);
}

static void update_streaming(struct fpw_node *n) {
    int streaming = n->stream_running && pw_array_get_len(&n->readers, uint32_t) > 0;
    if (streaming == n->streaming) return;
    n->streaming = streaming;
    n->on_state(n->user, streaming);
}

static void on_output_param_changed(void *data, uint32_t id, const struct spa_pod *param) {
    struct fpw_node *n = data;
    if (param && id == SPA_PARAM_Format) reply_buffers(n->output, n->stride, n->height, 1);
}

static const struct pw_stream_events output_events = {
    PW_VERSION_STREAM_EVENTS,
    .state_changed = on_output_state,
    .param_changed = on_output_param_changed,
    .process = on_output_process,
};

fpw_node *fpw_node_new(fpw_connection *c, const char *properties, uint32_t spa_video_format,
                       uint32_t width, uint32_t height, uint32_t bytes_per_pixel, uint32_t fps_num,
                       uint32_t fps_den, fpw_state_fn on_state, fpw_input_fn on_input, void *user,
                       char *error, size_t error_size) {
    struct fpw_node *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->connection = c;
    n->format = spa_video_format;
    n->width = width;
    n->height = height;
    n->stride = width * bytes_per_pixel;
    n->frame_size = n->stride * height;
    n->fps_num = fps_num;
    n->fps_den = fps_den ? fps_den : 1;
    n->on_state = on_state;
    n->on_input = on_input;
    n->user = user;
    pw_array_init(&n->readers, 16 * sizeof(uint32_t));
    n->placeholder = calloc(1, n->frame_size);
    if (!n->placeholder) { free(n); return NULL; }
    static int nodes; // under the loop's lock
    pw_thread_loop_lock(c->loop);
    snprintf(n->group, sizeof n->group, "foldcam-%d-%d", (int)getpid(), ++nodes);
    n->promote = pw_loop_add_timer(pw_thread_loop_get_loop(c->loop), on_promote, n);
    struct pw_properties *props = parse_properties(properties);
    if (props) pw_properties_set(props, PW_KEY_NODE_GROUP, n->group);
    n->output = pw_stream_new(c->core, "foldcam", props);
    int result = n->output ? 0 : -errno;
    if (n->output) {
        pw_stream_add_listener(n->output, &n->output_listener, &output_events, n);
        uint8_t space[1024];
        struct spa_pod_builder b = SPA_POD_BUILDER_INIT(space, sizeof space);
        const struct spa_pod *params[1] = { video_format(&b, SPA_PARAM_EnumFormat, n) };
        result = pw_stream_connect(n->output, PW_DIRECTION_OUTPUT, PW_ID_ANY,
                                   PW_STREAM_FLAG_MAP_BUFFERS, params, 1);
    }
    if (result < 0) {
        set_error(error, error_size, "cannot publish the node", result);
        if (n->output) pw_stream_destroy(n->output);
        pw_loop_destroy_source(pw_thread_loop_get_loop(c->loop), n->promote);
        pw_thread_loop_unlock(c->loop);
        free(n->placeholder);
        free(n);
        return NULL;
    }
    spa_list_append(&c->nodes, &n->link);
    pw_thread_loop_unlock(c->loop);
    return n;
}

void fpw_node_destroy(fpw_node *n) {
    if (!n) return;
    struct pw_thread_loop *loop = n->connection->loop;
    pw_thread_loop_lock(loop);
    spa_list_remove(&n->link);
    input_release(n->next);
    input_release(n->current);
    pw_loop_destroy_source(pw_thread_loop_get_loop(loop), n->promote);
    spa_hook_remove(&n->output_listener);
    pw_stream_destroy(n->output);
    pw_thread_loop_unlock(loop);
    pw_array_clear(&n->readers);
    free(n->placeholder);
    free(n);
}

void fpw_node_set_placeholder(fpw_node *n, const uint8_t *bytes, size_t size) {
    pw_thread_loop_lock(n->connection->loop);
    memcpy(n->placeholder, bytes, size < n->frame_size ? size : n->frame_size);
    pw_thread_loop_unlock(n->connection->loop);
}

void fpw_node_set_transforms(fpw_node *n, const uint32_t transforms[8]) {
    pw_thread_loop_lock(n->connection->loop);
    struct fpw_input *newest = n->next ? n->next : n->current;
    if (newest) memcpy(newest->transforms, transforms, sizeof newest->transforms);
    pw_thread_loop_unlock(n->connection->loop);
}

int fpw_node_connect_input(fpw_node *n, const char *target, const uint32_t transforms[8], int swap_red_blue,
                           uint32_t timeout_ms, uint32_t stall_ms) {
    struct fpw_input *in = calloc(1, sizeof *in);
    if (!in) return -ENOMEM;
    in->node = n;
    in->swap_red_blue = swap_red_blue;
    in->timeout_ms = timeout_ms;
    in->stall_ms = stall_ms;
    snprintf(in->target, sizeof in->target, "%s", target);
    memcpy(in->transforms, transforms, sizeof in->transforms);
    pw_thread_loop_lock(n->connection->loop);
    in->timer = pw_loop_add_timer(pw_thread_loop_get_loop(n->connection->loop), on_input_timeout, in);
    // node.dont-fallback: WirePlumber 0.5 otherwise links a stream whose target it will not link
    // (a node whose media.type is not Video) to the default camera instead, and the companion
    // would show a camera foldcamd did not decide on. 0.4 does not know the key and needs none.
    struct pw_properties *props = pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY, "Capture",
                                                    PW_KEY_MEDIA_ROLE, "Camera", PW_KEY_TARGET_OBJECT, target,
                                                    PW_KEY_NODE_DONT_RECONNECT, "true", "node.dont-fallback", "true", NULL);
    in->stream = pw_stream_new(n->connection->core, "foldcam-input", props);
    int result = in->stream ? 0 : -errno;
    if (in->stream) {
        pw_stream_add_listener(in->stream, &in->listener, &input_events, in);
        uint8_t space[1024];
        struct spa_pod_builder b = SPA_POD_BUILDER_INIT(space, sizeof space);
        const struct spa_pod *params[1] = { input_formats(&b, n) };
        result = pw_stream_connect(in->stream, PW_DIRECTION_INPUT, PW_ID_ANY,
                                   PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS, params, 1);
    }
    if (result < 0) {
        if (in->stream) { spa_hook_remove(&in->listener); pw_stream_destroy(in->stream); }
        pw_loop_destroy_source(pw_thread_loop_get_loop(n->connection->loop), in->timer);
        free(in);
    } else if (!n->current || n->current->failed) {
        // A stalled current input goes now: left in the node's group, its hung camera would
        // hold the node's frames (the placeholder too) until the new input's first frame.
        input_release(n->current);
        n->current = in;
    } else {
        input_release(n->next); // a newer decision replaces a switch still under way
        n->next = in;
    }
    if (result >= 0 && !in->failed) arm_link_timeout(in);
    pw_thread_loop_unlock(n->connection->loop);
    return result;
}

void fpw_node_disconnect_input(fpw_node *n) {
    pw_thread_loop_lock(n->connection->loop);
    input_release(n->next);
    input_release(n->current);
    n->next = n->current = NULL;
    pw_thread_loop_unlock(n->connection->loop);
}

void fpw_node_counters(fpw_node *n, uint64_t *forwarded, uint64_t *converted, uint64_t *placeholders, uint64_t *switches) {
    pw_thread_loop_lock(n->connection->loop);
    *forwarded = n->forwarded;
    *converted = n->converted;
    *placeholders = n->placeholders;
    *switches = n->switches;
    pw_thread_loop_unlock(n->connection->loop);
}

void fpw_server_version(fpw_connection *c, char *version, size_t size) {
    pw_thread_loop_lock(c->loop);
    snprintf(version, size, "%s", c->server_version);
    pw_thread_loop_unlock(c->loop);
}

uint32_t fpw_video_format_yuy2(void) { return SPA_VIDEO_FORMAT_YUY2; }
uint32_t fpw_video_format_uyvy(void) { return SPA_VIDEO_FORMAT_UYVY; }
uint32_t fpw_video_format_rgb(void) { return SPA_VIDEO_FORMAT_RGB; }
uint32_t fpw_video_format_bgra(void) { return SPA_VIDEO_FORMAT_BGRA; }
