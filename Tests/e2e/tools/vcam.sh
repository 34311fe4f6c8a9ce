# shellcheck shell=bash
# Helpers of the virtual-camera checks (checks/8x-*.sh) and the benchmark (bench/): the real
# foldcamd in hardware mode on the test rig rigs/duo-vivid.json (the duo rig with the guest's
# vivid cameras: YUYV 640x480 at 25 fps, outer-front mounted upside down) feeding /dev/video20,
# and a reader of /dev/video20 (tools/loop-reader) that logs every frame's colour. Check 89 also
# feeds /dev/video21 ($E2E_LOOPBACK2), the guest's second loopback.
# Source lib.sh first.

VCAM_DIR=/tmp/vcam
VCAM_SOCKET=$VCAM_DIR/foldcam.sock
VCAM_LOG=$VCAM_DIR/foldcamd.log
VCAM_PID=
VCAM_READER_PID=
export FOLDCAM_SOCKET=$VCAM_SOCKET
mkdir -p "$VCAM_DIR"

ctl() { "$FOLDCAM_BIN/foldcamctl" "$@"; }

# pin_hold DISPLAY: pins the view to DISPLAY as a kiosk does, on a connection kept open
# (`foldcamctl pin` holds the pin while it runs), and waits (30 s) until the daemon confirmed it.
# pin_release ends it by ending foldcamctl, as a kiosk that quits does.
pin_hold() {
    pin_release
    # Not through ctl(): a backgrounded function runs in a subshell, and killing that would
    # leave foldcamctl (and its pin) running.
    "$FOLDCAM_BIN/foldcamctl" pin "$1" > "$VCAM_DIR/pin.out" 2> "$VCAM_DIR/pin.err" &
    PIN_PID=$!
    wait_until 30 grep -q "pinned the view to $1" "$VCAM_DIR/pin.out" \
        || echo "foldcamctl pin $1 did not confirm within 30 s: $(cat "$VCAM_DIR/pin.err")" >&2
}
pin_release() {
    [ -n "${PIN_PID:-}" ] || return 0
    kill "$PIN_PID" 2> /dev/null
    wait "$PIN_PID" 2> /dev/null
    PIN_PID=
}

# set_angle DEGREES: moves the IIO hinge.
set_angle() { echo "$1" > /sys/module/hinge/parameters/angle; }

# vcam_start: starts foldcamd on the test rig ($VCAM_RIG_FILE, else rigs/$VCAM_RIG.json, default
# duo-vivid) and waits (up to 40 s) until its socket answers. It names the loopback by its node, or
# by its card label when VCAM_BY_LABEL=1, and runs with LD_PRELOAD=$VCAM_PRELOAD when that is set.
# VCAM_CONFIG_EXTRA is added to its config's members (e.g. ', "virtualCameraForwarding": "copy"').
# Its stderr is appended to $VCAM_LOG (shown on failure by vcam_stop's caller).
vcam_start() {
    local loopback="\"loopbackDevice\": \"$E2E_LOOPBACK\""
    [ "${VCAM_BY_LABEL:-0}" != 1 ] || loopback='"loopbackLabel": "foldcam virtual camera"'
    # Several virtual cameras (check 89): VCAM_LOOPBACKS is the "virtualCameras" member instead.
    [ -z "${VCAM_LOOPBACKS:-}" ] || loopback=$VCAM_LOOPBACKS
    cat > "$VCAM_DIR/foldcam.json" <<EOF
{"rig": "${VCAM_RIG_FILE:-$E2E_HERE/rigs/${VCAM_RIG:-duo-vivid}.json}", $loopback, "logLevel": "debug",
 "sensorPollMilliseconds": 20${VCAM_CONFIG_EXTRA:-}}
EOF
    rm -f "$VCAM_SOCKET"
    VCAM_LOG_OFFSET=$(stat -c %s "$VCAM_LOG" 2> /dev/null || echo 0)
    echo "--- foldcamd started at $EPOCHREALTIME" >> "$VCAM_LOG"
    LD_PRELOAD=${VCAM_PRELOAD:-} "$FOLDCAM_BIN/foldcamd" --config "$VCAM_DIR/foldcam.json" --socket "$VCAM_SOCKET" \
        >> "$VCAM_DIR/foldcamd.out" 2>> "$VCAM_LOG" &
    VCAM_PID=$!
    local _
    for _ in $(seq 400); do
        [ -S "$VCAM_SOCKET" ] && ctl status > /dev/null 2>&1 && return 0
        kill -0 "$VCAM_PID" 2> /dev/null || return 1
        sleep 0.1
    done
    return 1
}

# vcam_logged PATTERN: the running daemon's log (since its "--- foldcamd started" line in
# $VCAM_LOG) has a line matching the extended regular expression PATTERN.
vcam_logged() { tac "$VCAM_LOG" | sed '/^--- foldcamd started at/q' | grep -Eq "$1"; }

# vcam_stop: SIGTERM and wait (SIGKILL after 10 s).
vcam_stop() {
    [ -n "$VCAM_PID" ] || return 0
    kill "$VCAM_PID" 2> /dev/null
    local _
    for _ in $(seq 100); do kill -0 "$VCAM_PID" 2> /dev/null || break; sleep 0.1; done
    kill -9 "$VCAM_PID" 2> /dev/null
    wait "$VCAM_PID" 2> /dev/null
    VCAM_PID=
    # A sanitizer build (FOLDCAM_E2E_SANITIZE) reports leaks at exit, errors when they happen.
    local report='ERROR: [A-Za-z]*Sanitizer\|WARNING: ThreadSanitizer'
    if tail -c +"$((${VCAM_LOG_OFFSET:-0} + 1))" "$VCAM_LOG" 2> /dev/null | grep -q "$report"; then
        fail "${name:-virtual-camera}-sanitizer" "$(tail -c +"$((VCAM_LOG_OFFSET + 1))" "$VCAM_LOG" | grep -m1 "$report")"
        tail -c +"$((VCAM_LOG_OFFSET + 1))" "$VCAM_LOG" | grep -A30 -m1 "$report" >&2
    fi
}

# vcam_readiness: the daemon's readiness as "state" or "state/reason".
vcam_readiness() {
    # With several virtual cameras (check 89) the default one's "id" and "cameras" follow.
    ctl --json status 2> /dev/null | sed -n 's/.*"readiness":{"state":"\([a-z]*\)"\(,"reason":"\([A-Za-z]*\)"\)\{0,1\}[,}].*/\1\2/p' \
        | sed 's/,"reason":"/\//; s/"$//'
}

# vcam_wait_readiness WANT SECONDS: waits until the readiness is WANT (e.g. ready,
# interrupted/unplugged); true if it got there.
vcam_wait_readiness() {
    local want=$1 deadline=$((SECONDS + $2))
    while ((SECONDS < deadline)); do
        [ "$(vcam_readiness)" = "$want" ] && return 0
        sleep 0.2
    done
    return 1
}

# reader_start LOG: starts loop-reader on the loopback; waits (20 s) for its first frame.
reader_start() {
    "$E2E_TOOLS/loop-reader" "$E2E_LOOPBACK" "$1" &
    VCAM_READER_PID=$!
    local _
    for _ in $(seq 200); do
        grep -q '^frame ' "$1" 2> /dev/null && return 0
        kill -0 "$VCAM_READER_PID" 2> /dev/null || return 1
        sleep 0.1
    done
    return 1
}

reader_stop() {
    [ -n "$VCAM_READER_PID" ] || return 0
    kill "$VCAM_READER_PID" 2> /dev/null
    wait "$VCAM_READER_PID" 2> /dev/null
    VCAM_READER_PID=
}

# last_colours LOG N: the colour names of the last N frames, space-separated.
last_colours() { grep '^frame ' "$1" | tail -n "$2" | awk '{ printf "%s%s", sep, $4; sep = " " }'; }

# wait_colour LOG COLOUR SECONDS: waits until the last 5 frames are all COLOUR.
wait_colour() {
    local log=$1 colour=$2 deadline=$((SECONDS + $3)) want
    want=$(printf "$colour %.0s" 1 2 3 4 5)
    while ((SECONDS < deadline)); do
        [ "$(last_colours "$log" 5) " = "$want" ] && return 0
        sleep 0.1
    done
    return 1
}

# frames_after LOG N SECONDS: waits (at most SECONDS) until the reader has logged N more frames
# than it had at the call. How a check lets a camera run, e.g. to give vcam-analyse frames to
# check after a switch settled: by a count of frames, not by a time a loaded guest may not keep.
frames_after() {
    local want
    want=$(($(grep -c '^frame ' "$1") + $2))
    wait_until "$3" frames_at_least "$1" "$want"
}
frames_at_least() { (($(grep -c '^frame ' "$1") >= $2)); }

# writes_over ANALYSIS MS: for each switch in a vcam-analyse report (every command but the first,
# "start"), a line "LABEL: ..." when the producer's writes around it were more than MS apart (or
# the reader's log has no buffer timestamps to tell).
writes_over() {
    echo "$1" | awk -v bound="$2" '/ -> .*: gap / && $1 != "start" {
        apart = ""
        for (i = 1; i + 2 <= NF; i++) if ($i == "writes" && $(i + 1) == "at" && $(i + 2) == "most") apart = $(i + 3)
        if (apart == "")
            printf "%s: no buffer timestamps in the reader log to time the writes by\n", $1
        else if (apart + 0 > bound + 0)
            printf "%s: the producer wrote no frame for %s ms around the switch (bound %s ms)\n", $1, apart, bound }'
}

# vcam_settle LABEL: lets the camera run for 25 more frames (one second at 25 fps; at most 30 s),
# else adds to $problems.
vcam_settle() {
    frames_after "$reader" 25 30 || problems+=("$1: the reader got fewer than 25 frames in 30 s")
}

# vcam_step LABEL COLOUR COMMAND...: records the command in $events, runs it, waits (30 s) until
# the reader shows COLOUR (else adds to $problems), then lets the camera run (vcam_settle).
vcam_step() {
    local label=$1 colour=$2
    shift 2
    mark "$events" "$label" "$colour"
    "$@"
    wait_colour "$reader" "$colour" 30 || problems+=("after $label the reader shows '$(last_colours "$reader" 5)', not $colour")
    vcam_settle "after $label"
}

# vcam_fold_twice: once the reader shows inner-front (red), folds the hinge 180 -> 0 -> 180 -> 0 ->
# 180 (inner-front <-> outer-front), one vcam_step each.
vcam_fold_twice() {
    wait_colour "$reader" red 30 || problems+=("at start the reader shows '$(last_colours "$reader" 5)', not red (inner-front)")
    vcam_settle "at start"
    vcam_step fold-0 green set_angle 0
    vcam_step fold-180 red set_angle 180
    vcam_step fold-0-again green set_angle 0
    vcam_step fold-180-again red set_angle 180
}

# vcam_analyse [EVENTS]: tools/vcam-analyse over $reader and EVENTS (default $events): the report
# goes to stderr and into $analysis, its problems into $problems.
vcam_analyse() {
    local status line
    analysis=$("$E2E_HERE/tools/vcam-analyse" "$reader" "${1:-$events}")
    status=$?
    echo "$analysis" >&2
    while IFS= read -r line; do problems+=("${line#problem }"); done < <(echo "$analysis" | grep '^problem ')
    ((status == 0)) || ((${#problems[@]})) || problems+=("vcam-analyse failed")
}

# vcam_report NAME [LOG_LINES]: how every virtual-camera check ends: the analysis' figures as INFO
# lines (the host prints them with the results), then PASS NAME, or FAIL NAME with every problem
# and the daemon log's last LOG_LINES (default 40) lines.
vcam_report() {
    [ -z "${analysis:-}" ] || echo "$analysis" | grep -v '^problem ' | sed "s/^/INFO $1: /"
    if ((${#problems[@]})); then
        fail "$1" "$(IFS=';'; echo "${problems[*]}")"
        tail -n "${2:-40}" "$VCAM_LOG" >&2
    else
        pass "$1"
    fi
}

# mark EVENTS LABEL COLOUR: records "TIME LABEL COLOUR" (the moment of a command and the colour
# that should follow it) for tools/vcam-analyse.
mark() { echo "$EPOCHREALTIME $2 $3" >> "$1"; }

# vcam_cleanup: for EXIT traps. Keeps the reader logs and the daemon's log in $E2E_LOGS/vcam/
# (FOLDCAM_E2E_KEEP=1 keeps them on the host).
vcam_cleanup() {
    pin_release
    vcam_watch_stop
    reader_stop
    vcam_stop
    mkdir -p "$E2E_LOGS/vcam"
    cp "$VCAM_DIR"/*.reader "$VCAM_DIR"/*.events "$VCAM_LOG" "$E2E_LOGS/vcam/" 2> /dev/null
}

# vcam_begin NAME TAG: how every virtual-camera check starts: the hinge open, foldcamd idle (no
# reader yet, so no camera runs), then a reader ($reader, events in $events, both named by TAG)
# reading the loopback and foldcamd ready. On a failure it prints "FAIL NAME: why" and returns 1.
vcam_begin() {
    local name=$1 tag=$2
    set_angle 180
    if ! vcam_start || ! vcam_wait_readiness idle 30; then
        fail "$name" "foldcamd did not start idle (readiness '$(vcam_readiness)'; log: $(tail -n 3 "$VCAM_LOG" | tr '\n' ' '))"
        cat "$VCAM_LOG" >&2
        return 1
    fi
    reader=$VCAM_DIR/$tag.reader
    events=$VCAM_DIR/$tag.events
    rm -f "$events"
    mark "$events" start red
    if ! reader_start "$reader"; then
        fail "$name" "the reader got no frame from $E2E_LOOPBACK ($(tr '\n' ' ' < "$reader" 2> /dev/null))"
        cat "$VCAM_LOG" >&2
        return 1
    fi
    if ! vcam_wait_readiness ready 30; then
        fail "$name" "foldcamd did not become ready with a reader (readiness '$(vcam_readiness)'; log: $(tail -n 3 "$VCAM_LOG" | tr '\n' ' '))"
        cat "$VCAM_LOG" >&2
        return 1
    fi
}

# vcam_cameras_held [PID]: the guest's vivid capture nodes foldcamd (default $VCAM_PID) has open,
# space-separated, from /proc/PID/fd ("" when none: no physical camera is open).
declare -A VCAM_CAMERA_NODES=()
vcam_cameras_held() {
    local pid=${1:-$VCAM_PID} camera node held=()
    for camera in "${E2E_CAMERAS[@]}"; do
        [ -n "${VCAM_CAMERA_NODES[$camera]:-}" ] || VCAM_CAMERA_NODES[$camera]=$(camera_node "$camera")
        node=${VCAM_CAMERA_NODES[$camera]}
        [ -n "$node" ] || continue
        if find /proc/"$pid"/fd -maxdepth 1 -lname "$node" 2> /dev/null | grep -q .; then held+=("$camera"); fi
    done
    echo "${held[*]}"
}
vcam_holds_no_camera() { [ -z "$(vcam_cameras_held "$@")" ]; }
vcam_holds_camera() { [ -n "$(vcam_cameras_held "$@")" ]; }

# vcam_watch_start: a `foldcamctl watch` subscriber stamping each posture and virtualCamera event
# as it arrives ($VCAM_WATCH), for vcam_switch_mark; vcam_hinge DEGREES moves the hinge and
# stamps the write ($VCAM_WRITES). vcam_watch_stop ends the subscriber.
VCAM_WATCH=$VCAM_DIR/switch.watch
VCAM_WRITES=$VCAM_DIR/switch.writes
VCAM_WATCHER=
vcam_watch_start() {
    vcam_watch_stop
    : > "$VCAM_WATCH"
    : > "$VCAM_WRITES"
    ctl --json watch posture virtualCamera > >(while IFS= read -r line; do echo "$EPOCHREALTIME $line"; done > "$VCAM_WATCH") 2> /dev/null &
    VCAM_WATCHER=$!
}
vcam_watch_stop() {
    [ -n "$VCAM_WATCHER" ] || return 0
    kill "$VCAM_WATCHER" 2> /dev/null
    wait "$VCAM_WATCHER" 2> /dev/null
    VCAM_WATCHER=
}
vcam_hinge() {
    echo "$EPOCHREALTIME $1" >> "$VCAM_WRITES"
    set_angle "$1"
}
# vcam_fold_is DEGREES: the running daemon's hinge angle is DEGREES.
vcam_fold_is() { ctl --json status | grep -q "\"hinges\":{\"fold\":$1[.,}]"; }

# vcam_switch_mark EVENTS LABEL COLOUR SINCE SOURCE: for vcam-analyse, appends to EVENTS the
# write of the hinge angle that made SOURCE the source (the first such switch after SINCE): the
# posture event just before the virtualCamera event naming SOURCE gives the angle. Prints the
# time from that write to the posture event's arrival (the decision, as a subscriber sees it),
# in ms; false (and prints nothing) when no such write was found.
vcam_switch_mark() {
    local at decided
    read -r at decided < <(python3 - "$VCAM_WATCH" "$VCAM_WRITES" "$4" "$5" <<'PY'
import json, sys
watch, writes, since, source = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
angle = decided = None
for line in open(watch):
    stamp, _, text = line.partition(" ")
    try:
        event = json.loads(text)
    except ValueError:
        continue
    if float(stamp) <= since:
        continue
    if event.get("event") == "posture":
        angle, decided = event["data"]["hinges"]["fold"], float(stamp)
    elif event.get("event") == "virtualCamera" and event["data"].get("source") == source and angle is not None:
        made = [float(t) for t, a in (l.split() for l in open(writes)) if float(t) > since and float(a) == angle]
        if made:
            print("%.6f %.6f" % (made[-1], decided))
        break
PY
)
    [ -n "$at" ] || return 1
    echo "$at $2 $3" >> "$1"
    awk -v a="$at" -v d="$decided" 'BEGIN { printf "%.0f\n", (d - a) * 1000 }'
}
