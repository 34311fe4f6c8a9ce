# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 900
# A libcamera camera as a rig camera, on Debian 12's stock libcamera 0.0.3, PipeWire 0.3.65 and
# WirePlumber 0.4.13 (docs/pipewire.md, "Tests"): vimc (built from Debian's kernel source by
# Tests/e2e/run, loaded here) is libcamera's camera "Sensor B", and PipeWire's libcamera plugin
# makes it a camera node; vivid-001 is one through PipeWire's V4L2 plugin. The real foldcamd runs
# the rig rigs/duo-libcamera.json on the IIO hinge with only the PipeWire sink; PipeWire,
# WirePlumber, foldcam-pipewire and a pipewiresrc reader run as an unprivileged user (uid 65534,
# groups video and foldcam) in their own session.
#   1. libcamera lists vimc (cam -l), and the node PipeWire makes of it offers BGR and RGB at
#      fixed sizes (no YUYV): the companion converts. Its picture, vimc's test pattern set to
#      solid blue, is read straight from that node first (blue), so the colour is vimc's.
#   2. foldcamd --probe: the rig camera vimc-front is found at vimc's "RGB/YUV Capture" node
#      (tagged by a rule this check adds); the raw capture nodes answer (no error) and are
#      classified; each vimc capture node names the sensor its media graph links it to, the one
#      behind the links the kernel reports enabled (media-ctl). Run before and after libcamera
#      has configured the graph.
#   3. The reader of foldcam.viewed sees vimc (blue) open, vivid-001 (green) folded shut, vimc
#      again unfolded, in one stream with no error; the companion counts converted frames.
# The session (PipeWire, WirePlumber, the companion, the reader: steps 1's node and 3) runs on
# Debian 12's PipeWire, then again on bookworm-backports' PipeWire 1.4.2, WirePlumber 0.5.8 and
# libcamera 0.3.2 (Tests/e2e/run unpacks them on the host; $E2E_PIPEWIRE_BACKPORTS), reported as
# pipewire-libcamera-stock and -backports; pipewire-libcamera itself reports the rest. On 1.4.2,
# which names libcamera's formats right (PipeWire >= 1.1.81), vimc's node reads blue as labelled
# and the companion must not swap red and blue. A backports PipeWire the host could not fetch
# fails pipewire-libcamera-backports, saying why.
# Reported: how long vimc takes to load and PipeWire to list it, the libcamera node's frame
# rate, each switch's time to the new colour, and the companion's CPU time per frame while it
# converts vimc's BGR and while it copies vivid's YUYV.
. "$E2E_HERE/lib.sh"

name=pipewire-libcamera
dir=/tmp/pw-libcamera
user=65534
problems=()
flavour=''
info() { echo "INFO $name${flavour:+-$flavour}: $*"; }
seconds_since() { awk -v a="$1" -v b="${2:-$EPOCHREALTIME}" 'BEGIN { printf "%.1f", b - a }'; }
session='' daemon='' companion='' reader=''
stop() { # stop PID-VARIABLE: SIGTERM to the process (group, for setsid ones), then wait
    local pid=${!1}
    [ -n "$pid" ] || return 0
    kill -- -"$pid" 2> /dev/null || kill "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    printf -v "$1" ''
}
cleanup() {
    stop reader
    stop companion
    stop daemon
    stop session
    # The checks after this one run without vimc, as they ran before it.
    rm -f /etc/udev/rules.d/99-foldcam-e2e-vimc.rules
    udevadm control --reload
    rmmod vimc 2> /dev/null && udevadm settle -t 30
    mkdir -p "$E2E_LOGS/pw-libcamera"
    cp "$dir"/*.log "$dir"/*.json "$dir"/*.txt "$home"/*.log "$E2E_LOGS/pw-libcamera/" 2> /dev/null
}
trap cleanup EXIT
for program in pipewire wireplumber pw-dump dbus-run-session gst-launch-1.0 cam media-ctl; do
    command -v "$program" > /dev/null || { fail "$name" "$program is not installed (Tests/e2e/run installs the packages this check needs on the host, whose root the guest shares)"; exit 0; }
done
for binary in foldcamd foldcamctl foldcam-pipewire; do
    [ -x "$FOLDCAM_BIN/$binary" ] || { echo "SKIP $name: no $FOLDCAM_BIN/$binary (build the project first)"; exit 0; }
done
[ -r "$E2E_TOOLS/vimc.ko" ] || { fail "$name" "no $E2E_TOOLS/vimc.ko (Tests/e2e/run builds it from linux-source-6.1)"; exit 0; }
# $dir is root's (foldcamd listens only below directories of root's); what the user's processes
# write goes to $home.
rm -rf "$dir"
install -d -m 0755 "$dir"
home=$dir/user
install -d -o "$user" -g "$user" -m 0755 "$home"
set_angle() { echo "$1" > /sys/module/hinge/parameters/angle; }
video=$(getent group video | cut -d: -f3)
control=$(getent group foldcam | cut -d: -f3)
[ -n "$video" ] || { fail "$name" "no group video for the session's user"; exit 0; }

# --- vimc: a rule tags its processed capture node as the rig camera; loaded here, not at boot ---
cat > /etc/udev/rules.d/99-foldcam-e2e-vimc.rules <<'EOF'
SUBSYSTEM=="video4linux", ATTR{name}=="RGB/YUV Capture", ENV{FOLDCAM_CAMERA}="vimc-front", ENV{FOLDCAM_MATCH}="ATTR{name}"
EOF
udevadm control --reload
loading=$EPOCHREALTIME
if ! modprobe -a v4l2-tpg videobuf2-vmalloc videobuf2-dma-contig videobuf2-v4l2 mc videodev >&2 || ! insmod "$E2E_TOOLS/vimc.ko" >&2; then
    fail "$name" "vimc.ko did not load (see the log)"
    exit 0
fi
udevadm settle -t 30
info "vimc loaded and settled in $(seconds_since "$loading") s"
node_named() { # the /dev node of the video4linux device whose sysfs name is $1
    local dev
    for dev in /sys/class/video4linux/*; do
        [ "$(cat "$dev/name")" = "$1" ] && { echo "/dev/${dev##*/}"; return 0; }
    done
    return 1
}
rgb_capture=$(node_named "RGB/YUV Capture") raw0=$(node_named "Raw Capture 0") raw1=$(node_named "Raw Capture 1")
sensor_a=$(node_named "Sensor A") sensor_b=$(node_named "Sensor B")
media=
for found in /sys/class/video4linux/"${rgb_capture#/dev/}"/device/media*; do media=/dev/${found##*/}; break; done
outer=$(camera_node outer-front) back=$(camera_node back)
if [ -z "$rgb_capture" ] || [ -z "$raw0" ] || [ -z "$raw1" ] || [ -z "$sensor_a" ] || [ -z "$sensor_b" ] || [ ! -c "$media" ]; then
    fail "$name" "vimc's nodes are not all there: RGB/YUV Capture '$rgb_capture', raw '$raw0' '$raw1', sensors '$sensor_a' '$sensor_b', media '$media'"
    exit 0
fi
# vimc's sensors draw 75% colour bars by default: solid blue tells its picture from vivid's
# solid green (outer-front) at a glance, and by frame-colours' name.
v4l2-ctl -d "$sensor_b" -c test_pattern=9 >&2 || problems+=("could not set vimc Sensor B's test pattern to solid blue")
# The rig with the vivid cameras' real nodes as their PipeWire V4L2 paths.
python3 - "$E2E_HERE/rigs/duo-libcamera.json" "$dir/rig.json" "$outer" "$back" <<'PY'
import json, sys
rig = json.load(open(sys.argv[1]))
for camera in rig["cameras"]:
    if camera["id"] == "outer-front": camera["pipewire"]["v4l2Path"] = sys.argv[3]
    if camera["id"] == "back": camera["pipewire"]["v4l2Path"] = sys.argv[4]
json.dump(rig, open(sys.argv[2], "w"), indent=1)
PY
cat > "$dir/foldcam.json" <<EOF
{"rig": "$dir/rig.json", "sinks": ["pipewire"], "group": "foldcam", "logLevel": "debug", "sensorPollMilliseconds": 20}
EOF
chmod 0644 "$dir/rig.json" "$dir/foldcam.json"

# libcamera's camera id "platform/vimc.0 Sensor B", as PipeWire names its node.
lcnode=libcamera_input.platform_vimc.0_Sensor_B
# --- foldcamd --probe, checked against the kernel's own graph (media-ctl) ----------------------
# probe_check LABEL: the rig camera found at the RGB/YUV Capture node; no vimc node an error;
# each capture node's sensor the one media-ctl's enabled links lead to.
probe_check() {
    local label=$1 out status
    "$FOLDCAM_BIN/foldcamd" --probe --config "$dir/foldcam.json" --json > "$dir/probe-$label.json" 2> "$dir/probe-$label.log"
    "$FOLDCAM_BIN/foldcamd" --probe --config "$dir/foldcam.json" > "$dir/probe-$label.txt" 2>> "$dir/probe-$label.log"
    media-ctl -d "$media" -p > "$dir/media-$label.txt" 2>&1
    out=$(python3 - "$dir/probe-$label.json" "$dir/media-$label.txt" "$rgb_capture" "$raw0" "$raw1" "$sensor_a" "$sensor_b" <<'PY'
import json, re, sys
probe_path, media_path, rgb, raw0, raw1, sensor_a, sensor_b = sys.argv[1:]
probe = json.load(open(probe_path))
graph = open(media_path).read()
# The sensor behind the scaler: the Debayer whose link into it is enabled ("<- "Debayer B":1 [ENABLED]").
scaler = graph[graph.index('Scaler ('):]
enabled = re.findall(r'<- "(Debayer [AB])":1 \[ENABLED\]', scaler.split("\n- entity")[0])
behind = {"Debayer A": "%s (Sensor A)" % sensor_a, "Debayer B": "%s (Sensor B)" % sensor_b}
want = {raw0: "%s (Sensor A)" % sensor_a, raw1: "%s (Sensor B)" % sensor_b,
        rgb: behind[enabled[0]] if len(enabled) == 1 else None}
print("scaler input %s" % (enabled or "none"))
cameras = {c.get("node"): c for c in probe.get("cameras", [])}
for node in (rgb, raw0, raw1):
    entry = cameras.get(node)
    if entry is None:
        print("problem: --probe lists no %s" % node); continue
    if entry.get("status") != "camera":
        print("classified %s: %s %s" % (node, entry.get("status"), entry.get("reason") or entry.get("error")))
        if entry.get("status") in ("error", "failed"): print("problem: %s is an error in --probe: %s" % (node, entry))
        continue
    sensor = (entry.get("descriptor", {}).get("classification") or entry.get("classification") or {}).get("sensor")
    rig = entry.get("descriptor", {}).get("rigCamera", entry.get("rigCamera"))
    print("classified %s: camera, rig camera %s, sensor %s" % (node, rig, sensor))
    if sensor != want[node]:
        print("problem: %s's sensor per --probe is %r, the graph's enabled links say %r" % (node, sensor, want[node]))
    if node == rgb and rig != "vimc-front":
        print("problem: %s is rig camera %r, not vimc-front" % (node, rig))
needs = [n for n in probe.get("needs", []) if n.get("kind", n.get("what", "")) and "vimc-front" in json.dumps(n)]
print("needs vimc-front: %s" % json.dumps(needs))
PY
)
    status=$?
    echo "$out" | sed "s/^/probe $label: /" >&2
    ((status == 0)) || problems+=("probe $label: checking --probe's answer failed (status $status; $dir/probe-$label.json)")
    while IFS= read -r line; do problems+=("probe $label: ${line#problem: }"); done < <(grep '^problem: ' <<< "$out")
    info "--probe $label libcamera: $(grep -E '^(scaler|classified)' <<< "$out" | tr '\n' ';')"
    grep -q "PipeWire: *foldcam-pipewire feeds it from the node with node.name=$lcnode (in the user's session: --probe cannot see PipeWire" "$dir/probe-$label.txt" \
        || problems+=("probe $label: the vimc rig camera's block does not name the PipeWire node it is fed from")
    grep -Eq "camera vimc-front +found +$rgb_capture " "$dir/probe-$label.txt" || problems+=("probe $label: the text listing does not say rig camera vimc-front is found: $(grep 'vimc-front' "$dir/probe-$label.txt" | tr '\n' ' ')")
}
probe_check before

# The colour as libcamera itself delivers it: cam writes BGR888 frames, which libcamera defines
# as DRM's BGR888 (little-endian: red, green, blue in memory).
# mean_colour FILE ORDER: the colour of a file of 24-bit frames (libcamera's vimc, asked for
# 640x480, delivers 636x480: 915840 bytes a frame), its bytes taken in ORDER (rgb or bgr).
mean_colour() {
    python3 - "$1" "$2" <<'PY'
import sys
data, order = open(sys.argv[1], "rb").read(), sys.argv[2]
if len(data) < 3 * 97:
    print("none (%d bytes)" % len(data)); sys.exit()
means = [sum(data[i::3][::97]) / len(data[i::3][::97]) for i in range(3)]
r, g, b = means if order == "rgb" else means[::-1]
name = "blue" if b > 150 and g < 80 and r < 80 else "red" if r > 150 and g < 80 and b < 80 else "other"
print("%s R %.0f G %.0f B %.0f, %d bytes" % (name, r, g, b, len(data)))
PY
}
timeout 120 cam -c 1 --capture=3 --stream pixelformat=BGR888,width=640,height=480 --file="$dir/cam-#.bin" > "$dir/cam.log" 2>&1
cam_file=$(find "$dir" -maxdepth 1 -name 'cam-*.bin' | sort | tail -n 1)
cam_colour=$(mean_colour "${cam_file:-/dev/null}" rgb)
info "libcamera's own frame (cam, BGR888: red, green, blue in memory): $cam_colour"
[[ $cam_colour == blue* ]] || problems+=("cam's frame of vimc's solid blue pattern is not blue: $cam_colour ($(tail -n 2 "$dir/cam.log" | tr '\n' ' '))")


# graph: "name api.libcamera.path|api.v4l2.path" of each Video/Source node.
graph() {
    as_user pw-dump 2> /dev/null | python3 -c '
import json, sys
try:
    objects = json.load(sys.stdin)
except ValueError:
    objects = []
for o in objects:
    props = (o.get("info") or {}).get("props") or {}
    if o.get("type") == "PipeWire:Interface:Node" and props.get("media.class") == "Video/Source":
        print(props.get("node.name"), props.get("api.libcamera.path") or props.get("api.v4l2.path") or "-", props.get("api.libcamera.location", "-"))'
}
# check_pipewire stock|backports: the user's session, the companion and the reader on that
# PipeWire (lib.sh's pipewire_env), reported as $name-FLAVOUR; stopped again at the end.
check_pipewire() {
    local test="$name-$flavour" common=("${problems[@]}")
    problems=()
    if ! pipewire_env "$flavour"; then
        fail "$test" "$PIPEWIRE_ENV_ERROR"
        problems=("${common[@]}")
        return
    fi
    local from='' plugin
    if [ "$flavour" != stock ]; then
        from=" (from $E2E_PIPEWIRE_BACKPORTS_HOST)"
        # Without them WirePlumber 0.5 lists no libcamera node, and the check would only time out.
        for plugin in "spa-0.2/libcamera/libspa-libcamera.so" "libcamera.so.0.3"; do
            if ! compgen -G "$E2E_PIPEWIRE_BACKPORTS/usr/lib/*/$plugin*" > /dev/null; then
                fail "$test" "the backports root $E2E_PIPEWIRE_BACKPORTS_HOST has no $plugin (pipewire-libcamera and libcamera 0.3: Tests/e2e/run fetches them with FOLDCAM_BACKPORTS_EXTRA=pipewire-libcamera)"
                problems=("${common[@]}")
                return
            fi
        done
    fi
    info "$PIPEWIRE_VERSIONS$from"
    local session_started=$EPOCHREALTIME
    pipewire_session
    local status=$?
    info "the session's steps on this PipeWire took $(seconds_since "$session_started") s"
    if ((status == 0)); then
        if ((${#problems[@]})); then
            fail "$test" "$(IFS=';'; echo "${problems[*]}")"
            tail -n 30 "$dir/companion.log" "$dir/foldcamd.log" >&2
        else
            pass "$test"
        fi
    fi
    stop reader
    stop companion
    stop session
    mkdir -p "$E2E_LOGS/pw-libcamera/$flavour"
    cp "$home"/*.log "$dir/companion.log" "$E2E_LOGS/pw-libcamera/$flavour/" 2> /dev/null
    problems=("${common[@]}")
}

# pipewire_session: the steps on one PipeWire; returns non-zero having reported a failure.
pipewire_session() {
    # --- The user's session: PipeWire, WirePlumber (the guest has no logind: see check 93) ---------
    # as_user COMMAND...: COMMAND as the session's user, in its environment. Started in the
    # background, "${as_user[@]}" setsid COMMAND keeps one pid (setpriv, env and setsid exec it), the
    # leader of its own process group, which stop ends whole.
    as_user=(setpriv --reuid="$user" --regid="$user" --groups="$video${control:+,$control}" env "${PIPEWIRE_ENV[@]}" HOME="$home/home" XDG_RUNTIME_DIR="$home/run"
        PIPEWIRE_RUNTIME_DIR="$home/run" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache")
    rm -rf "$home"
    install -d -o "$user" -g "$user" -m 0755 "$home"
    install -d -o "$user" -g "$user" -m 0700 "$home/run"
    for sub in home config config/wireplumber config/wireplumber/bluetooth.lua.d state cache; do install -d -o "$user" -g "$user" "$home/$sub"; done
    [[ $PIPEWIRE_VERSIONS != *"WirePlumber 0.4."* ]] \
        || echo 'bluez_monitor.properties["with-logind"] = false' > "$home/config/wireplumber/bluetooth.lua.d/51-foldcam-e2e-no-logind.lua"
    started=$EPOCHREALTIME
    "${as_user[@]}" setsid dbus-run-session -- sh -c "pipewire > '$home/pipewire.log' 2>&1 &
        until [ -S '$home/run/pipewire-0' ]; do sleep 0.05; done
        wireplumber > '$home/wireplumber.log' 2>&1 & wait" > "$dir/session.log" 2>&1 &
    session=$!
    listed() { local now; now=$(graph); grep -q "^$lcnode " <<< "$now" && grep -q " $outer -$" <<< "$now"; }
    if ! wait_until 120 listed; then
        fail "$test" "PipeWire did not list the libcamera node $lcnode and vivid-001's ($outer) within 120 s: $(graph | tr '\n' ';'); cam -l: $(cam -l 2>&1 | tr '\n' ' ')"
        tail -n 20 "$home/pipewire.log" "$home/wireplumber.log" >&2
        return 1
    fi
    info "PipeWire listed the libcamera and V4L2 camera nodes $(seconds_since "$started") s after it started"
    info "cam -l: $(env "${PIPEWIRE_ENV[@]}" cam -l 2> /dev/null | grep -v '^Available' | tr '\n' ' ')"
    as_user pw-dump > "$dir/pw-dump.json" 2> /dev/null
    formats=$(python3 - "$dir/pw-dump.json" "$lcnode" <<'PY'
import json, sys
for o in json.load(open(sys.argv[1])):
    props = (o.get("info") or {}).get("props") or {}
    if props.get("node.name") != sys.argv[2]: continue
    fs = (o.get("info") or {}).get("params", {}).get("EnumFormat", [])
    names = sorted({f.get("format") for f in fs})
    sizes = {(f.get("size") or {}).get("width") for f in fs}
    rates = [f for f in fs if "framerate" in f]
    print("formats %s; %d fixed sizes; 640x480 %s; framerates %s; api.libcamera.location %s" % (
        ",".join(names), len(fs), "yes" if any(f.get("size") == {"width": 640, "height": 480} for f in fs) else "no",
        "none" if not rates else "some", props.get("api.libcamera.location", "unset")))
PY
    )
    info "the libcamera node offers $formats"
    [[ $formats == *"640x480 yes"* ]] || problems+=("the libcamera node offers no 640x480: $formats")
    [[ $formats == *BGR* || $formats == *RGB* ]] || problems+=("the libcamera node offers neither BGR nor RGB: $formats")

    # vimc's picture straight from its node, and the node's rate: 10 frames of what PipeWire calls
    # BGR. PipeWire before 1.1.81 names libcamera's BGR888 (red first in memory) SPA "BGR" (blue
    # first): taken at its word, the frame is red. The companion corrects it (LibcameraColourOrder).
    version=${PIPEWIRE_VERSIONS#PipeWire }
    version=${version%%,*}
    read_started=$EPOCHREALTIME
    as_user timeout 120 gst-launch-1.0 -q pipewiresrc target-object="$lcnode" num-buffers=10 ! video/x-raw,format=BGR,width=640,height=480 \
        ! fdsink fd=1 > "$dir/vimc.bgr" 2> "$dir/gst-vimc.log"
    read_seconds=$(seconds_since "$read_started")
    as_labelled=$(mean_colour "$dir/vimc.bgr" bgr)
    info "vimc's frames read from $lcnode as PipeWire $version labels them (BGR): $as_labelled (10 frames, pipeline up and down in $read_seconds s)"
    if [ "$(printf '%s\n' "$version" 1.1.81 | sort -V | head -n 1)" = 1.1.81 ]; then
        [[ $as_labelled == blue* ]] || problems+=("PipeWire $version (with the RGB mapping fixed) gives vimc's blue as $as_labelled")
    else
        [[ $as_labelled == red* ]] || problems+=("PipeWire $version (before the RGB mapping fix) should label vimc's blue so that it reads red; read $as_labelled")
    fi

    # --- foldcamd, the companion, the reader ---------------------------------------------------------
    set_angle 180
    # The daemon listens only in a directory of its own user (root); everyone may connect.
    install -d -m 0755 "$dir/daemon"
    export FOLDCAM_SOCKET=$dir/daemon/foldcam.sock
    if [ -z "$daemon" ]; then
        "$FOLDCAM_BIN/foldcamd" --config "$dir/foldcam.json" --socket "$FOLDCAM_SOCKET" > "$dir/foldcamd.out" 2> "$dir/foldcamd.log" &
        daemon=$!
    fi
    if ! wait_until 60 ctl status > /dev/null 2>&1; then
        fail "$test" "foldcamd did not answer within 60 s: $(tail -n 5 "$dir/foldcamd.log" | tr '\n' ' ')"
        return 1
    fi
    chmod 0666 "$FOLDCAM_SOCKET"
    # The stall bound as long as the link timeout: a starved TCG guest can hold vimc's frames back
    # for seconds, and the host test checks the stall bound (Tests/pipewire/run).
    "${as_user[@]}" setsid "$FOLDCAM_BIN/foldcam-pipewire" --config "$dir/foldcam.json" --socket "$FOLDCAM_SOCKET" --stall-timeout 20 > "$dir/companion.out" 2> "$dir/companion.log" &
    companion=$!
    published() { graph | grep -q '^foldcam.viewed '; }
    if ! wait_until 60 published; then
        fail "$test" "the companion published no foldcam.viewed within 60 s: $(tail -n 5 "$dir/companion.log" | tr '\n' ' ')"
        return 1
    fi
    frames=$home/reader.log
    # A leaky queue: the colour log keeps up with the stream even where Python under TCG is slower
    # than 25 frames a second.
    "${as_user[@]}" setsid bash -c "gst-launch-1.0 -q pipewiresrc target-object=foldcam.viewed ! video/x-raw,format=YUY2,width=640,height=480 \
        ! queue leaky=downstream max-size-buffers=3 ! fdsink fd=1 2> '$home/gst-reader.log' | '$E2E_HERE/tools/pw-reader' '$frames' 640 480" &
    reader=$!
    reader_started=$EPOCHREALTIME
    last_colours() { grep '^frame ' "$frames" 2> /dev/null | tail -n "$1" | awk '{ printf "%s%s", sep, $4; sep = " " }'; }
    five() { [ "$(last_colours 5)" = "$1 $1 $1 $1 $1" ]; }
    frame_count() { grep -c '^frame ' "$frames" 2> /dev/null || echo 0; }
    ticks() { awk '{ print $14 + $15 }' /proc/"$companion"/stat 2> /dev/null || echo 0; }
    # cpu_per_frame: the companion's CPU time per frame it writes (its node's 25 fps clock), while
    # the reader reads its next 50 frames.
    cpu_per_frame() {
        local t0 f0 s0 t1
        t0=$(ticks) f0=$(frame_count) s0=$EPOCHREALTIME
        wait_until 60 frames_from "$((f0 + 50))" || return 1
        t1=$(ticks)
        awk -v t=$((t1 - t0)) -v s="$(seconds_since "$s0")" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f ms over %.1f s", 1000 * t / hz / (s * 25), s }'
    }
    frames_from() { (($(frame_count) >= $1)); }
    # step LABEL COLOUR COMMAND...: runs COMMAND, then waits (90 s) for five frames of COLOUR.
    step() {
        local label=$1 colour=$2 from
        shift 2
        from=$EPOCHREALTIME
        "$@"
        if wait_until 90 five "$colour"; then
            info "$label: five $colour frames $(seconds_since "$from") s after it"
        else
            problems+=("$label: the reader shows '$(last_colours 5)', not $colour")
        fi
    }
    step "the reader's start (open, vimc-front)" blue true
    converting=$(cpu_per_frame) || converting="not measured (no 50 frames in 60 s)"
    step "folded shut (outer-front, vivid-001)" green set_angle 0
    copying=$(cpu_per_frame) || copying="not measured (no 50 frames in 60 s)"
    step "unfolded (vimc-front again)" blue set_angle 180
    info "the companion's CPU time per frame: converting vimc's BGR $converting; copying vivid's YUYV $copying"
    info "sinks: $(ctl status 2> /dev/null | grep -E '^sink' | tr '\n' ' ')"
    kill -0 "$reader" 2> /dev/null || problems+=("the reader stopped: $(tail -n 3 "$home/gst-reader.log" | tr '\n' ' ')")
    info "the reader read $(frame_count) frames in one stream in $(seconds_since "$reader_started") s; first frame $(awk '$1 == "frame" { print $4; exit }' "$frames")"
    stop reader
    if grep -Eq 'ERROR|CRITICAL|WARN' "$home/gst-reader.log"; then problems+=("the reader logged: $(grep -E 'ERROR|CRITICAL|WARN' "$home/gst-reader.log" | head -n 3 | tr '\n' ' ')"); fi
    closed() { grep -q 'camera stream closed' "$dir/companion.log"; }
    if wait_until 30 closed; then
        converted=$(sed -n 's/.*camera stream closed.* (\([0-9]*\) converted from RGB or BGR).*/\1/p' "$dir/companion.log" | tail -n 1)
        info "companion: $(grep 'camera stream closed' "$dir/companion.log" | tail -n 1 | sed 's/.*so far //')"
        ((${converted:-0} > 0)) || problems+=("the companion converted no frame from vimc's BGR: $(grep 'camera stream closed' "$dir/companion.log" | tail -n 1)")
    else
        problems+=("the companion did not close the camera stream within 30 s of the reader leaving")
    fi
    grep -q "<- $lcnode" "$dir/companion.log" || problems+=("the companion never connected $lcnode: $(grep '<-' "$dir/companion.log" | tr '\n' ' ')")
    # A camera node that could not feed it (docs/pipewire.md): vimc's and vivid's all should.
    if grep -q 'cannot feed it' "$dir/companion.log"; then problems+=("the companion gave up on a camera node: $(grep 'cannot feed it' "$dir/companion.log" | head -n 2 | tr '\n' ' ')"); fi
    if [ "$(printf '%s\n' "$version" 1.1.81 | sort -V | head -n 1)" != 1.1.81 ]; then
        grep -q "<- $lcnode.*taken the other way round" "$dir/companion.log" \
            || problems+=("with PipeWire $version the companion did not say it takes the libcamera node's RGB and BGR the other way round")
    elif grep -q "taken the other way round" "$dir/companion.log"; then
        problems+=("PipeWire $version has the RGB mapping fixed, but the companion swapped: $(grep 'taken the other way round' "$dir/companion.log" | head -n 1)")
    fi
}

ctl() { "$FOLDCAM_BIN/foldcamctl" "$@"; }
as_user() { "${as_user[@]}" "$@"; }
for flavour in stock backports; do
    check_pipewire
done
flavour=

probe_check after
if ((${#problems[@]})); then
    fail "$name" "$(IFS=';'; echo "${problems[*]}")"
    tail -n 30 "$dir/companion.log" "$dir/foldcamd.log" >&2
else
    pass "$name"
fi
