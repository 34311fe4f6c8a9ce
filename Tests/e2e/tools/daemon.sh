# shellcheck shell=bash
# Runs the real foldcamd (hardware mode, not --simulate) for the daemon checks
# (Tests/e2e/checks/7x-*.sh). Source it after lib.sh:
#
#   daemon_config FILE JSON       write a daemon configuration
#   daemon_start CONFIG           loopback_reset, then start `foldcamd --config CONFIG` on
#                                 $FOLDCAM_SOCKET (NOTIFY_SOCKET set), wait until it
#                                 answers hello; sets DAEMON_PID, DAEMON_READY_S (start to READY=1
#                                 on NOTIFY_SOCKET) and DAEMON_HELLO_S (start to the first hello
#                                 reply); returns 1 (reason in DAEMON_ERROR) when it does not come up
#   daemon_stop                   SIGTERM, wait (SIGKILL after 10 s); its log goes to stderr;
#                                 then loopback_reset
#   sock METHOD [PARAMS_JSON]     one request over the socket (tools/foldcam-socket call)
#   follow_steps CHECK RIG STEP.. drive and compare step by step (foldcam-socket follow): fills
#                                 the array `problems`, prints its figures as INFO lines
#   info CHECK TEXT               an INFO line (a figure the host prints, not counted)
#   duo_rig OUT                   the duo rig with the vivid cameras' formats (rig id duo-e2e)
#   rig_with_hinge_fold ID OUT    a copy of a one-hinge built-in rig whose hinge is renamed "fold"
#                                 and its cameras inner-front, outer-front, ...; no accelerometers
#
# Everything talks to the daemon through its socket or foldcamctl, as a client would.

E2E_DAEMON_DIR=/run/foldcam-e2e/daemon
export FOLDCAM_SOCKET=$E2E_DAEMON_DIR/foldcam.sock
E2E_SOCKET_TOOL=$E2E_HERE/tools/foldcam-socket
E2E_HINGE_PARAMETER=/sys/module/hinge/parameters/angle
mkdir -p "$E2E_DAEMON_DIR"
DAEMON_PID=
DAEMON_LOG=

sock() { python3 "$E2E_SOCKET_TOOL" call "$@"; }
info() { echo "INFO $1: $2"; }
# follow_steps CHECK RIG STEP...: runs `foldcam-socket follow`; its problems land in the array
# `problems`, its figures become INFO lines of CHECK.
follow_steps() {
    local check=$1 out status
    shift
    out=$(python3 "$E2E_SOCKET_TOOL" follow "$@")
    status=$?
    mapfile -t problems < <(sed -n 's/^problem: //p' <<< "$out")
    ((status == 0 || ${#problems[@]})) || problems+=("foldcam-socket follow exited with status $status")
    sed -n "s/^info: /INFO $check: /p" <<< "$out"
}
ctl() { "$FOLDCAM_BIN/foldcamctl" "$@"; }

daemon_config() { printf '%s\n' "$2" > "$1"; }

# daemon_prepare CHECK WORK MEMBERS ANGLE: how the daemon checks begin. Prints SKIP CHECK and
# returns 1 when foldcamd is not built; else sets $work ($E2E_DAEMON_DIR/WORK, created) and
# $config (the duo rig's vivid copy plus the JSON object members MEMBERS) and puts the hinge at
# ANGLE.
daemon_prepare() {
    if [ ! -x "$FOLDCAM_BIN/foldcamd" ]; then
        echo "SKIP $1: no $FOLDCAM_BIN/foldcamd (build the project first)"
        return 1
    fi
    work=$E2E_DAEMON_DIR/$2
    mkdir -p "$work"
    config=$work/config.json
    duo_rig "$work/duo-e2e.json"
    daemon_config "$config" '{"rig": "'"$work/duo-e2e.json"'", '"$3"'}'
    echo "$4" > "$E2E_HINGE_PARAMETER"
}

daemon_start() {
    local config=$1 notify=$E2E_DAEMON_DIR/notify.sock ready=$E2E_DAEMON_DIR/ready listener started hello
    DAEMON_ERROR="" DAEMON_READY_S="" DAEMON_HELLO_S=""
    DAEMON_LOG=$E2E_DAEMON_DIR/foldcamd.$(date +%s%N).log
    loopback_reset
    rm -f "$ready" "$ready.bound" "$FOLDCAM_SOCKET"
    python3 "$E2E_SOCKET_TOOL" notify-listen "$notify" "$ready" &
    listener=$!
    wait_until 20 test -e "$ready.bound" || echo "the notify listener did not bind $notify within 20 s" >&2
    started=$EPOCHREALTIME
    NOTIFY_SOCKET=$notify "$FOLDCAM_BIN/foldcamd" --config "$config" --socket "$FOLDCAM_SOCKET" --quiet \
        > "$DAEMON_LOG" 2>&1 &
    DAEMON_PID=$!
    if ! hello=$(python3 "$E2E_SOCKET_TOOL" wait-hello 40 "$DAEMON_PID"); then
        DAEMON_ERROR="foldcamd did not answer hello within 40 s, or exited ($(tail -n 1 "$DAEMON_LOG"))"
        kill "$listener" 2> /dev/null
        return 1
    fi
    DAEMON_HELLO=${hello#* }
    DAEMON_HELLO_S=$(awk -v a="$started" -v b="${hello%% *}" 'BEGIN { printf "%.2f", b - a }')
    # READY=1 goes out as the daemon starts serving; the listener may write it down a little
    # after the hello reply on a loaded guest.
    wait_until 20 test -s "$ready"
    if [ -s "$ready" ]; then
        DAEMON_READY_S=$(awk -v a="$started" -v b="$(cat "$ready")" 'BEGIN { printf "%.2f", b - a }')
    fi
    kill "$listener" 2> /dev/null
    wait "$listener" 2> /dev/null
    return 0
}

daemon_stop() {
    [ -n "$DAEMON_PID" ] || return 0
    kill -TERM "$DAEMON_PID" 2> /dev/null
    for _ in $(seq 100); do kill -0 "$DAEMON_PID" 2> /dev/null || break; sleep 0.1; done
    if kill -0 "$DAEMON_PID" 2> /dev/null; then
        echo "foldcamd $DAEMON_PID did not stop on SIGTERM within 10 s; killing it" >&2
        kill -KILL "$DAEMON_PID" 2> /dev/null
    fi
    wait "$DAEMON_PID" 2> /dev/null
    DAEMON_STATUS=$?
    DAEMON_PID=
    loopback_reset
    if [ -n "$DAEMON_LOG" ]; then
        echo "--- foldcamd log ($DAEMON_LOG) ---" >&2
        cat "$DAEMON_LOG" >&2
    fi
}

# loopback_reset: gives the next daemon (and the next check) the output-only loopback guest-init
# made. Two things stay behind a producer otherwise, with Debian 12's v4l2loopback 0.12.7:
# - foldcamd's producer sets keep_format and sustain_framerate, so the loopback stays a capture
#   device with the daemon's format after it exits;
# - a producer that only write()s (foldcamd's, tools/loop-producer) is never marked a writer, so
#   closing it does not restore the output capability: the loopback then offers capture only, or
#   nothing, and VIDIOC_S_FMT(OUTPUT) fails with EINVAL.
# foldcamd copes with both by itself (LoopbackState; check 84 shows it), but the test tools do not.
# Clearing the controls and closing a VIDIOC_STREAMON(OUTPUT) opener (its error is expected:
# there are no buffers) undoes both.
loopback_reset() {
    python3 - "$E2E_LOOPBACK" <<'EOF' || echo "loopback_reset: $E2E_LOOPBACK does not offer output" >&2
import fcntl, os, struct, sys
VIDIOC_QUERYCAP, VIDIOC_S_CTRL, VIDIOC_STREAMON = 0x80685600, 0xC008561C, 0x40045612
KEEP_FORMAT, SUSTAIN_FRAMERATE = 0x0098F900, 0x0098F901  # v4l2loopback's own controls
fd = os.open(sys.argv[1], os.O_RDWR)
for control in (KEEP_FORMAT, SUSTAIN_FRAMERATE):
    try:
        fcntl.ioctl(fd, VIDIOC_S_CTRL, struct.pack("Ii", control, 0))
    except OSError as error:
        print("loopback_reset: VIDIOC_S_CTRL 0x%x: %s" % (control, error), file=sys.stderr)
try:
    fcntl.ioctl(fd, VIDIOC_STREAMON, struct.pack("i", 2))  # V4L2_BUF_TYPE_VIDEO_OUTPUT
except OSError:
    pass  # no buffers: expected; this opener counts as a writer all the same
os.close(fd)
fd = os.open(sys.argv[1], os.O_RDONLY)
caps = fcntl.ioctl(fd, VIDIOC_QUERYCAP, bytes(104))
os.close(fd)
sys.exit(0 if struct.unpack_from("I", caps, 88)[0] & 0x2 else 1)  # device_caps & V4L2_CAP_VIDEO_OUTPUT
EOF
}

# duo_rig OUT: the built-in duo rig (same ids, geometry, postures and switches) with the formats
# of the guest's vivid cameras (YUYV 640x480 at 25 fps), so the daemon's virtual camera producer
# copies frames instead of scaling them to 1920x1080 at 60 fps, which TCG cannot keep up with.
duo_rig() {
    python3 - "$REPO/Sources/FoldcamCore/Presets/duo.json" "$1" <<'EOF'
import json, sys
rig = json.load(open(sys.argv[1]))
for camera in rig["cameras"]:
    camera["formats"] = [{"pixelFormats": ["YUYV"], "width": 640, "height": 480, "fps": 25}]
    camera["mediaTypes"] = ["video"]
rig["id"] = "duo-e2e"
json.dump(rig, open(sys.argv[2], "w"), indent=1)
EOF
}

# rig_with_hinge_fold PRESET OUT: the preset with its hinge renamed "fold" (the id the test rules
# give the hinge module), its cameras renamed to the ids the vivid devices carry and given their
# formats (as duo_rig), and no accelerometers (the guest has none: the hinge sensor and the
# switches drive it). Rig id e2e-PRESET.
rig_with_hinge_fold() {
    python3 - "$REPO/Sources/FoldcamCore/Presets/$1.json" "$2" <<'EOF'
import json, sys
rig = json.load(open(sys.argv[1]))
old = None
for panel in rig["panels"]:
    if "hinge" in panel:
        old = panel["hinge"]["id"]
        panel["hinge"]["id"] = "fold"
names = dict(zip([c["id"] for c in rig["cameras"]], ["inner-front", "outer-front", "back"]))
for camera in rig["cameras"]:
    camera["id"] = names[camera["id"]]
    camera["formats"] = [{"pixelFormats": ["YUYV"], "width": 640, "height": 480, "fps": 25}]
rig.pop("accelerometers", None)
for posture in rig["postures"]:
    posture["ranges"] = {("fold" if k == old else k): v for k, v in posture["ranges"].items()}
for switch in rig.get("switches", {}).values():
    if switch["hinge"] == old:
        switch["hinge"] = "fold"
rig["id"] = "e2e-" + rig["id"]
json.dump(rig, open(sys.argv[2], "w"), indent=1)
EOF
}
