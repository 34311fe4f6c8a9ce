# shellcheck shell=bash source=../lib.sh
# Real DRM connectors: qemu's virtio-gpu with two outputs (Tests/e2e/run), whose driver is kept
# from loading at boot so the other checks see no DRM card. foldcamd runs the duo rig open at
# 180° (posture display inner) with inner on Virtual-2 and outer on Virtual-1
# (rigs/duo-vivid-outputs.json) and is started before the driver, as at boot; then virtio_gpu is
# loaded. Under -display none qemu enables only its first output, so Virtual-2 is disconnected
# and the view moves from inner to outer. Checked:
#   drm-blacklist      no DRM card before this check loads the driver
#   drm-seen           each display's output state is what the kernel's sysfs says of its
#                      connector, and the viewed display is the model's choice
#   drm-master         foldcamd's read of the card (panel orientation) made it DRM master, as the
#                      kernel does to a card's first opener, and it dropped that at once: a later
#                      plain open (tools/drm-output) is master again, so nothing holds the card
#   drm-master-unprivileged  the same open and DROP_MASTER as foldcamd's, by a process with no
#                      capabilities (uid nobody, group video): the kernel lets it drop
#   drm-dpms-off       DPMS Off on Virtual-1 (tools/drm-output as DRM master; no uevent: the
#                      daemon's 2 s poll sees it) makes outer unviewable (outputOff), `devices`
#                      says so, and the viewed display is the model's choice
#   drm-dpms-on        DPMS On again: outer on, viewable, and viewed as before
# Every wait polls the daemon's state with a generous bound; the timings are INFO lines.
. "$E2E_HERE/lib.sh"
# shellcheck source=../tools/daemon.sh
. "$E2E_HERE/tools/daemon.sh"

if [ ! -x "$FOLDCAM_BIN/foldcamd" ]; then
    echo "SKIP drm-seen: no $FOLDCAM_BIN/foldcamd (build the project first)"
    exit 0
fi
work=$E2E_DAEMON_DIR/drm-outputs
mkdir -p "$work"
config=$work/config.json
daemon_config "$config" '{"rig": "'"$E2E_HERE/rigs/duo-vivid-outputs.json"'", "loopbackLabel": "foldcam virtual camera", "logLevel": "debug"}'
echo 180 > "$E2E_HINGE_PARAMETER"
stamp() { local up; read -r up _ < /proc/uptime; echo "[$up] $*" >&2; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'; }
# The model's viewed display at 180° (posture open: inner), given the two output states: the
# posture's display if viewable, else the first viewable one in rig order, else still inner.
# (A Python expression on the state `s`.)
viewed_expr="(lambda v: 'inner' if v('inner') else 'outer' if v('outer') else 'inner')(lambda d: s['displays'][d]['outputState'] in ('on', 'unknown'))"

gpu=
for device in /sys/bus/pci/devices/*; do
    [ "$(cat "$device/vendor")" = 0x1af4 ] && [ "$(cat "$device/device")" = 0x1050 ] && gpu=$device
done
if [ -z "$gpu" ]; then
    fail drm-seen "the guest has no virtio-gpu PCI device (1af4:1050): Tests/e2e/run's qemu command line lacks -device virtio-gpu-pci"
    exit 0
fi
if compgen -G '/sys/class/drm/card*' > /dev/null; then
    fail drm-blacklist "a DRM card exists before this check loads virtio_gpu ($(ls /sys/class/drm)): modprobe.blacklist=virtio_gpu did not keep it from the other checks"
else
    pass drm-blacklist
fi

dpms_pid=
cleanup() {
    if [ -n "$dpms_pid" ]; then
        kill "$dpms_pid" 2> /dev/null
        wait "$dpms_pid" 2> /dev/null
    fi
    daemon_stop
}
trap cleanup EXIT
if ! daemon_start "$config"; then
    fail drm-seen "$DAEMON_ERROR"
    exit 0
fi
sock state > "$work/before.state"
before=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); print(" ".join(s["displays"][d]["outputState"] for d in ("inner", "outer")))' "$work/before.state")

# --- The driver loaded with foldcamd running: the connectors appear --------------------------
stamp "modprobe virtio_gpu"
loaded=$EPOCHREALTIME
if ! modprobe virtio_gpu 2> "$work/modprobe.err"; then
    fail drm-seen "modprobe virtio_gpu: $(cat "$work/modprobe.err")"
    exit 0
fi
if ! wait_until 60 test -e /sys/class/drm/card0-Virtual-2; then
    fail drm-seen "virtio_gpu loaded but no /sys/class/drm/card0-Virtual-2 within 60 s ($(ls /sys/class/drm))"
    exit 0
fi
appeared=$(since "$loaded")
udevadm settle -t 30
# What the kernel says of each connector, and foldcam's state for it (docs/model.md, Outputs).
declare -A kernel expected
for name in Virtual-1 Virtual-2; do
    connector=/sys/class/drm/card0-$name
    status=$(cat "$connector/status") enabled=$(cat "$connector/enabled") dpms=$(cat "$connector/dpms")
    kernel[$name]="$status/$enabled/$dpms"
    if [ "$status" = disconnected ]; then
        expected[$name]=disconnected
    elif [ "$status" = connected ] && [ "$enabled" = enabled ] && [ "$dpms" = On ]; then
        expected[$name]=on
    elif [ "$status" = connected ]; then
        expected[$name]=off
    else
        expected[$name]=unknown
    fi
done
# judge STATE_FILE DEVICES_FILE|- EXPECTATIONS: the problems with a state (and `devices` reply),
# one line; EXPECTATIONS is "display=outputState ..." for both displays. Each display's output,
# viewable and reason must follow from its state, its direction lists be empty when it is not
# viewable (and inner's not empty when it is: inner-front faces its viewer at 180°), and the
# viewed display be the model's choice.
judge() {
    python3 - "$1" "$2" "$viewed_expr" "$3" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
devices = {d["id"]: d for d in json.load(open(sys.argv[2])).get("displays", [])} if sys.argv[2] != "-" else None
outputs = {"inner": "Virtual-2", "outer": "Virtual-1"}
problems = []
for item in sys.argv[4].split():
    display, wanted = item.split("=")
    d = s["displays"][display]
    viewable = wanted in ("on", "unknown")
    reason = {"off": "outputOff", "disconnected": "outputDisconnected"}.get(wanted)
    got = (d.get("output"), d.get("outputState"), d.get("viewable"), d.get("reason"))
    if got != (outputs[display], wanted, viewable, reason):
        problems.append("%s: output/state/viewable/reason %s, expected %s" % (display, got, (outputs[display], wanted, viewable, reason)))
    if not viewable and (d.get("forward") != [] or d.get("backward") != []):
        problems.append("%s is not viewable but has forward %s backward %s" % (display, d.get("forward"), d.get("backward")))
    if viewable and display == "inner" and not d.get("forward"):
        problems.append("inner is viewable but has no forward camera")
    if devices is not None:
        entry = devices.get(display, {})
        if (entry.get("output"), entry.get("state"), entry.get("viewable")) != (outputs[display], wanted, viewable):
            problems.append("devices: %s %s" % (display, entry))
if s.get("viewedDisplay") != eval(sys.argv[3]):
    problems.append("viewedDisplay %s, the model says %s" % (s.get("viewedDisplay"), eval(sys.argv[3])))
print("; ".join(problems))
EOF
}
viewed() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("viewedDisplay"))' "$1"; }

info drm-seen "before the driver: inner/outer $before; sysfs after modprobe virtio_gpu (connectors there ${appeared} s later): Virtual-1 ${kernel[Virtual-1]}, Virtual-2 ${kernel[Virtual-2]} (status/enabled/dpms)"
seen="inner=${expected[Virtual-2]} outer=${expected[Virtual-1]}"
seen_expr="s['displays']['inner']['outputState'] == '${expected[Virtual-2]}' and s['displays']['outer']['outputState'] == '${expected[Virtual-1]}'"
if python3 "$E2E_SOCKET_TOOL" wait-state 60 "$seen_expr" > "$work/seen.state" 2> "$work/seen.err"; then
    info drm-seen "the daemon's state had $seen $(since "$loaded") s after modprobe; viewed $(viewed "$work/seen.state")"
    ctl --json devices > "$work/seen.devices"
    problem=$(judge "$work/seen.state" "$work/seen.devices" "$seen")
    if [ -n "$problem" ]; then fail drm-seen "$problem"; else pass drm-seen; fi
else
    fail drm-seen "the daemon's state never had $seen (what sysfs says) within 60 s: $(tail -c 400 "$work/seen.err")"
fi

# --- DRM master: foldcamd was made master by its open and dropped it -------------------------
"$E2E_TOOLS/drm-output" list /dev/dri/card0 > "$work/list" 2> "$work/list.err"
info drm-master "drm-output list /dev/dri/card0 after foldcamd read the card: $(tr '\n' ',' < "$work/list")"
dropped=$(grep -c '/dev/dri/card0: opening it made foldcamd DRM master' "$DAEMON_LOG")
if ! grep -qx 'master yes' "$work/list"; then
    fail drm-master "a plain open of /dev/dri/card0 after foldcamd read it is not DRM master: something holds the card ($(cat "$work/list" "$work/list.err"))"
elif [ "$dropped" != 1 ]; then
    fail drm-master "foldcamd's log says $dropped times that opening card0 made it DRM master and it dropped that (expected once: its one read of the card)"
else
    pass drm-master
fi
# foldcamd may run unprivileged (group video): the kernel must let such an opener drop the
# master its open gave it (DROP_MASTER without CAP_SYS_ADMIN: only a file that was master, by
# the process that opened it). As nobody with group video, like the packaged daemon's user.
video_gid=$(getent group video | cut -d: -f3)
setpriv --reuid=65534 --regid="${video_gid:-44}" --clear-groups --inh-caps=-all --bounding-set=-all \
    "$E2E_TOOLS/drm-output" drop /dev/dri/card0 > "$work/drop" 2>&1
info drm-master-unprivileged "drm-output drop /dev/dri/card0 as uid 65534, gid ${video_gid:-44}, no capabilities: $(tr '\n' ',' < "$work/drop")"
if [ "$(tr '\n' ',' < "$work/drop")" = "master yes,dropped,master no," ]; then
    pass drm-master-unprivileged
else
    fail drm-master-unprivileged "an unprivileged opener made master could not drop it: $(cat "$work/drop")"
fi

# --- DPMS off and on, as a compositor would: no uevent, the poll sees it ----------------------
if [ "${expected[Virtual-1]}" != on ]; then
    fail drm-dpms-off "Virtual-1 is ${kernel[Virtual-1]} (status/enabled/dpms), not on: nothing to switch off"
    exit 0
fi
# The tool holds its descriptor (and DPMS Off) until told "on" through a FIFO.
rm -f "$work/dpms.in" "$work/dpms.out"
mkfifo "$work/dpms.in" "$work/dpms.out"
"$E2E_TOOLS/drm-output" dpms /dev/dri/card0 Virtual-1 < "$work/dpms.in" > "$work/dpms.out" 2> "$work/dpms.err" &
dpms_pid=$!
exec {to_tool}> "$work/dpms.in"
exec {from_tool}< "$work/dpms.out"
line=
read -r -t 30 line <&"$from_tool"
switched=$EPOCHREALTIME
if [ "$line" != off ]; then
    fail drm-dpms-off "drm-output did not set DPMS Off: $(cat "$work/dpms.err")"
    exit 0
fi
off="inner=${expected[Virtual-2]} outer=off"
if python3 "$E2E_SOCKET_TOOL" wait-state 30 "s['displays']['outer']['outputState'] == 'off'" > "$work/off.state" 2> "$work/off.err"; then
    info drm-dpms-off "sysfs dpms $(cat /sys/class/drm/card0-Virtual-1/dpms), enabled $(cat /sys/class/drm/card0-Virtual-1/enabled); the daemon's state had outer off $(since "$switched") s after DPMS Off (poll every 2 s); viewed $(viewed "$work/off.state")"
    ctl --json devices > "$work/off.devices"
    problem=$(judge "$work/off.state" "$work/off.devices" "$off")
    if [ -n "$problem" ]; then fail drm-dpms-off "$problem"; else pass drm-dpms-off; fi
else
    fail drm-dpms-off "outer's output never off within 30 s of DPMS Off (sysfs dpms $(cat /sys/class/drm/card0-Virtual-1/dpms)): $(tail -c 400 "$work/off.err")"
fi

echo on >&"$to_tool"
line=
read -r -t 30 line <&"$from_tool"
switched=$EPOCHREALTIME
if [ "$line" != on ]; then
    fail drm-dpms-on "drm-output did not set DPMS On: $(cat "$work/dpms.err")"
    exit 0
fi
if python3 "$E2E_SOCKET_TOOL" wait-state 30 "s['displays']['outer']['outputState'] == 'on'" > "$work/on.state" 2> "$work/on.err"; then
    info drm-dpms-on "the daemon's state had outer on $(since "$switched") s after DPMS On; viewed $(viewed "$work/on.state")"
    problem=$(judge "$work/on.state" - "$seen")
    if [ -n "$problem" ]; then fail drm-dpms-on "$problem"; else pass drm-dpms-on; fi
else
    fail drm-dpms-on "outer's output never on again within 30 s of DPMS On: $(tail -c 400 "$work/on.err")"
fi
exec {to_tool}>&-
wait "$dpms_pid" || echo "drm-output exited with status $?: $(cat "$work/dpms.err")" >&2
dpms_pid=
