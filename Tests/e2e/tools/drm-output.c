// Real DRM connectors for the end-to-end tier (checks/74-daemon-drm-outputs.sh), through the KMS
// UAPI of the guest kernel's headers (the host has no libdrm headers).
//
//   drm-output list CARD          open CARD (no SET_MASTER) and print "master yes|no": whether the
//                                 open alone made this file DRM master (AUTH_MAGIC answers EINVAL
//                                 to a master, EACCES to anyone else); then one line per
//                                 connector: "NAME connected|disconnected|unknown dpms=N"
//   drm-output drop CARD          open CARD, print "master yes|no", then DRM_IOCTL_DROP_MASTER's
//                                 answer ("dropped" or the error) and "master yes|no" again: what
//                                 foldcamd does after opening a card (run unprivileged, it shows
//                                 the kernel lets an opener drop the master its open gave it)
//   drm-output dpms CARD NAME     become DRM master (SET_MASTER when the open did not), set
//                                 connector NAME's DPMS property Off and print "off"; read a line
//                                 from stdin, set it On and print "on"; wait for EOF on stdin.
//                                 The descriptor stays open meanwhile: closing the last one of
//                                 the card would make the fbdev emulation restore its mode.
// Exit status 2 with a message naming the failed step.
#include <drm/drm.h>
#include <drm/drm_mode.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static void die(const char *what) {
    fprintf(stderr, "drm-output: %s: %s\n", what, strerror(errno));
    exit(2);
}

static void ask(int fd, unsigned long request, void *argument, const char *what) {
    while (ioctl(fd, request, argument) == -1) {
        if (errno != EINTR) die(what);
    }
}

// The kernel's drm_connector_enum_list, by DRM_MODE_CONNECTOR_*.
static const char *const types[] = {"Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO",
                                    "LVDS", "Component", "DIN", "DP", "HDMI-A", "HDMI-B", "TV", "eDP",
                                    "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB"};

struct connector {
    uint32_t id, connection;
    char name[48];
    uint32_t dpms_property;
    uint64_t dpms;
};

// Connector `index` of the card: its name, connection and DPMS property (without probing: room
// for one mode, as libdrm's drmModeGetConnectorCurrent).
static int read_connector(int fd, uint32_t id, struct connector *out) {
    struct drm_mode_modeinfo mode;
    struct drm_mode_get_connector c;
    memset(&c, 0, sizeof c);
    c.connector_id = id;
    c.modes_ptr = (uintptr_t)&mode;
    c.count_modes = 1;
    ask(fd, DRM_IOCTL_MODE_GETCONNECTOR, &c, "DRM_IOCTL_MODE_GETCONNECTOR");
    uint32_t count = c.count_props;
    uint32_t *props = calloc(count + 1, sizeof *props);
    uint64_t *values = calloc(count + 1, sizeof *values);
    if (!props || !values) die("calloc");
    memset(&c, 0, sizeof c);
    c.connector_id = id;
    c.modes_ptr = (uintptr_t)&mode;
    c.count_modes = 1;
    c.props_ptr = (uintptr_t)props;
    c.prop_values_ptr = (uintptr_t)values;
    c.count_props = count;
    ask(fd, DRM_IOCTL_MODE_GETCONNECTOR, &c, "DRM_IOCTL_MODE_GETCONNECTOR");
    out->id = id;
    out->connection = c.connection;
    snprintf(out->name, sizeof out->name, "%s-%u",
             c.connector_type < sizeof types / sizeof *types ? types[c.connector_type] : "Unknown", c.connector_type_id);
    out->dpms_property = 0;
    for (uint32_t i = 0; i < count && i < c.count_props; i++) {
        struct drm_mode_get_property p;
        memset(&p, 0, sizeof p);
        p.prop_id = props[i];
        ask(fd, DRM_IOCTL_MODE_GETPROPERTY, &p, "DRM_IOCTL_MODE_GETPROPERTY");
        if (strcmp(p.name, "DPMS") == 0) {
            out->dpms_property = props[i];
            out->dpms = values[i];
        }
    }
    free(props);
    free(values);
    return 0;
}

// Every connector of the card; *count set.
static struct connector *connectors(int fd, uint32_t *count) {
    struct drm_mode_card_res r;
    memset(&r, 0, sizeof r);
    ask(fd, DRM_IOCTL_MODE_GETRESOURCES, &r, "DRM_IOCTL_MODE_GETRESOURCES");
    uint32_t wanted = r.count_connectors;
    uint32_t *ids = calloc(wanted + 1, sizeof *ids);
    if (!ids) die("calloc");
    memset(&r, 0, sizeof r);
    r.connector_id_ptr = (uintptr_t)ids;
    r.count_connectors = wanted;
    ask(fd, DRM_IOCTL_MODE_GETRESOURCES, &r, "DRM_IOCTL_MODE_GETRESOURCES");
    *count = wanted < r.count_connectors ? wanted : r.count_connectors;
    struct connector *list = calloc(*count + 1, sizeof *list);
    if (!list) die("calloc");
    for (uint32_t i = 0; i < *count; i++) read_connector(fd, ids[i], &list[i]);
    free(ids);
    return list;
}

// Whether this file is DRM master now: AUTH_MAGIC is master-only (EACCES otherwise); a master
// asking for magic 0, which no client holds, gets EINVAL.
static int is_master(int fd) {
    struct drm_auth auth = {.magic = 0};
    if (ioctl(fd, DRM_IOCTL_AUTH_MAGIC, &auth) == 0) return 1;
    if (errno == EINVAL) return 1;
    if (errno == EACCES) return 0;
    die("DRM_IOCTL_AUTH_MAGIC");
    return 0;
}

static void set_dpms(int fd, const struct connector *c, uint64_t value) {
    struct drm_mode_obj_set_property set;
    memset(&set, 0, sizeof set);
    set.value = value;
    set.prop_id = c->dpms_property;
    set.obj_id = c->id;
    set.obj_type = DRM_MODE_OBJECT_CONNECTOR;
    ask(fd, DRM_IOCTL_MODE_OBJ_SETPROPERTY, &set, "DRM_IOCTL_MODE_OBJ_SETPROPERTY (DPMS)");
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "list") == 0) {
        int fd = open(argv[2], O_RDWR | O_CLOEXEC);
        if (fd < 0) die(argv[2]);
        printf("master %s\n", is_master(fd) ? "yes" : "no");
        uint32_t count;
        struct connector *list = connectors(fd, &count);
        for (uint32_t i = 0; i < count; i++) {
            const char *state = list[i].connection == 1 ? "connected" : list[i].connection == 2 ? "disconnected" : "unknown";
            printf("%s %s dpms=%llu\n", list[i].name, state, (unsigned long long)list[i].dpms);
        }
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "drop") == 0) {
        int fd = open(argv[2], O_RDWR | O_CLOEXEC);
        if (fd < 0) die(argv[2]);
        printf("master %s\n", is_master(fd) ? "yes" : "no");
        if (ioctl(fd, DRM_IOCTL_DROP_MASTER, NULL) == 0)
            printf("dropped\n");
        else
            printf("DRM_IOCTL_DROP_MASTER: %s\n", strerror(errno));
        printf("master %s\n", is_master(fd) ? "yes" : "no");
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "dpms") == 0) {
        int fd = open(argv[2], O_RDWR | O_CLOEXEC);
        if (fd < 0) die(argv[2]);
        if (!is_master(fd)) ask(fd, DRM_IOCTL_SET_MASTER, NULL, "DRM_IOCTL_SET_MASTER (is another process DRM master?)");
        uint32_t count;
        struct connector *list = connectors(fd, &count);
        const struct connector *c = NULL;
        for (uint32_t i = 0; i < count; i++) {
            if (strcmp(list[i].name, argv[3]) == 0) c = &list[i];
        }
        if (!c || !c->dpms_property) {
            fprintf(stderr, "drm-output: %s has no connector %s with a DPMS property\n", argv[2], argv[3]);
            return 2;
        }
        set_dpms(fd, c, DRM_MODE_DPMS_OFF);
        printf("off\n");
        fflush(stdout);
        char line[64];
        if (!fgets(line, sizeof line, stdin)) {
            fprintf(stderr, "drm-output: stdin closed before \"on\"\n");
            return 2;
        }
        set_dpms(fd, c, DRM_MODE_DPMS_ON);
        printf("on\n");
        fflush(stdout);
        while (fgets(line, sizeof line, stdin)) {
        }
        return 0;
    }
    fprintf(stderr, "usage: drm-output list CARD | drm-output drop CARD | drm-output dpms CARD CONNECTOR\n");
    return 2;
}
