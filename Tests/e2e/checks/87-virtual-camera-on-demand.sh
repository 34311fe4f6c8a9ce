# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 420
# The virtual camera runs only while watched (docs/virtual-camera.md, "Only while watched"), with
# the real foldcamd in hardware mode and the guest's v4l2loopback 0.12.7 (no client-usage event:
# the daemon counts openers, woken by inotify):
#   1. started with no reader it is idle: readiness `idle`, no vivid node open in foldcamd, the
#      loopback still offers capture; its producer and setup threads make no wake-ups (counted
#      over a window from /proc; the whole daemon's figure is reported);
#   2. a reader's VIDIOC_STREAMON starts the camera: its first red (inner-front) frame arrives
#      (the time from STREAMON is reported; asserted only within 30 s), readiness `ready`;
#   3. closing the last reader stops the camera no sooner than the 2 s grace period (the time to
#      the release is reported), readiness `idle` again;
#   4. a snapshot while idle starts the camera, answers with a red frame and stops it again (its
#      latency is reported); a snapshot of a past moment while idle is refused, naming the idle
#      camera;
#   5. a reader that opened before foldcamd started gets inner-front's frames once it does.
# Five daemon phases with camera starts of 1 to 4 s each under TCG: it gets 420 s, not 180.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=virtual-camera-on-demand
trap vcam_cleanup EXIT
problems=()
info() { echo "INFO $name: $*"; }
seconds_since() { awk -v a="$1" -v b="${2:-$EPOCHREALTIME}" 'BEGIN { printf "%.2f", b - a }'; }

# switches PID [THREAD]: voluntary + involuntary context switches so far of the process's threads
# (or of the one named THREAD): each is a wake-up after the thread slept or was preempted.
switches() {
    local total=0 task v n
    for task in /proc/"$1"/task/*; do
        [ -z "${2:-}" ] || [ "$(cat "$task/comm" 2> /dev/null)" = "$2" ] || continue
        v=$(sed -n 's/^voluntary_ctxt_switches:\s*//p' "$task/status" 2> /dev/null)
        n=$(sed -n 's/^nonvoluntary_ctxt_switches:\s*//p' "$task/status" 2> /dev/null)
        total=$((total + ${v:-0} + ${n:-0}))
    done
    echo "$total"
}

# --- 1. idle ---------------------------------------------------------------------------------
set_angle 180
if ! vcam_start || ! vcam_wait_readiness idle 30; then
    fail "$name" "foldcamd did not start idle (readiness '$(vcam_readiness)'; log: $(tail -n 3 "$VCAM_LOG" | tr '\n' ' '))"
    cat "$VCAM_LOG" >&2
    exit 0
fi
wait_until 20 vcam_logged 'detected by' || problems+=("foldcamd did not say how it detects readers")
method=$(tac "$VCAM_LOG" | sed '/^--- foldcamd started at/q' | grep -o 'detected by [^;]*' | head -n 1)
info "readers of $E2E_LOOPBACK $method"
held=$(vcam_cameras_held)
[ -z "$held" ] || problems+=("with no reader foldcamd holds $held open")
# Wake-ups while idle, over a window (a measurement: the window is time, the figures are counts).
window=5
all0=$(switches "$VCAM_PID")
producer0=$(switches "$VCAM_PID" foldcam-produce)
setup0=$(switches "$VCAM_PID" foldcam-setup)
sleep "$window"
all1=$(switches "$VCAM_PID")
producer1=$(switches "$VCAM_PID" foldcam-produce)
setup1=$(switches "$VCAM_PID" foldcam-setup)
idle_producer=$((producer1 - producer0 + setup1 - setup0))
info "idle wake-ups over ${window} s: whole daemon $((all1 - all0)) ($(awk -v n=$((all1 - all0)) -v s=$window 'BEGIN { printf "%.1f", n / s }')/s; sensor polling every 20 ms in this config), producer and setup threads $idle_producer"
# Asleep in poll() with no timeout: a starved guest can only lower this count.
((idle_producer <= 2)) || problems+=("while idle the producer and setup threads woke $idle_producer times in ${window} s")
held=$(vcam_cameras_held)
[ -z "$held" ] || problems+=("idle after ${window} s, foldcamd holds $held open")
# Listed and openable (an opener like this one, gone within milliseconds, starts nothing).
caps=$(v4l2-ctl -d "$E2E_LOOPBACK" -D 2> /dev/null | sed -n '/Device Caps/,$p')
[[ $caps == *"Video Capture"* ]] || problems+=("while idle $E2E_LOOPBACK does not offer capture: $(echo "$caps" | tr -s '\t\n' '  ')")

# --- 2. a reader starts the camera ------------------------------------------------------------
reader=$VCAM_DIR/ondemand.reader
events=$VCAM_DIR/ondemand.events
rm -f "$events"
mark "$events" start red
reader_start "$reader" || problems+=("the reader got no frame from $E2E_LOOPBACK ($(tr '\n' ' ' < "$reader" 2> /dev/null))")
wait_colour "$reader" red 30 || problems+=("with a reader the loopback shows '$(last_colours "$reader" 5)', not red")
streamon=$(awk '$1 == "streamon" { print $2; exit }' "$reader")
first_red=$(awk '$1 == "frame" && $4 == "red" { print $3; exit }' "$reader")
if [ -n "$streamon" ] && [ -n "$first_red" ]; then
    to_frame=$(seconds_since "$streamon" "$first_red")
    info "a reader's STREAMON to its first real (red) frame: ${to_frame} s (the settle for openers is 0.15 s, then the camera's start; vivid runs at 25 fps)"
    awk -v t="$to_frame" 'BEGIN { exit !(t < 30) }' || problems+=("the first real frame came ${to_frame} s after STREAMON")
else
    problems+=("no STREAMON time or no red frame in the reader's log")
fi
vcam_wait_readiness ready 30 || problems+=("with a reader readiness is '$(vcam_readiness)', not ready")
wait_until 10 vcam_holds_camera || problems+=("with a reader foldcamd holds no camera open")
vcam_settle "with a reader"

# --- 3. the last reader leaves: stops after the grace period ---------------------------------
# logged_more PATTERN N: the running daemon has logged more than N lines matching PATTERN.
log_count() { tac "$VCAM_LOG" | sed '/^--- foldcamd started at/q' | grep -c "$1"; }
logged_more() { (($(log_count "$1") > $2)); }
zero_before=$(log_count 'virtual camera: 0 readers')
off_before=$(log_count 'nobody is watching; the camera is off')
left=$EPOCHREALTIME
reader_stop
# Where the time goes: the daemon noticing the close, the grace period, stopping the stream.
wait_until 30 logged_more 'virtual camera: 0 readers' "$zero_before" && noticed=$(seconds_since "$left")
wait_until 30 logged_more 'nobody is watching; the camera is off' "$off_before" && stopping=$(seconds_since "$left")
if wait_until 30 vcam_holds_no_camera; then
    released=$(seconds_since "$left")
    info "the camera was released ${released} s after the last reader closed (grace period 2 s; the daemon logged 0 readers after ${noticed:-?} s and stopped the camera after ${stopping:-?} s)"
    # The daemon starts the grace period when it notices the close, which is after $left.
    awk -v t="$released" 'BEGIN { exit !(t >= 2.0) }' || problems+=("the camera stopped ${released} s after the last reader left, before the 2 s grace period")
else
    problems+=("30 s after the last reader left foldcamd still holds $(vcam_cameras_held)")
fi
vcam_wait_readiness idle 10 || problems+=("without readers readiness is '$(vcam_readiness)', not idle")
vcam_logged 'nobody is watching; the camera is off' || problems+=("foldcamd did not log that the camera is off")

# --- 4. snapshots while idle --------------------------------------------------------------------
asked=$EPOCHREALTIME
if reply=$(ctl snapshot "$VCAM_DIR/idle.png" 2>&1); then
    latency=$(seconds_since "$asked")
    colour=$("$E2E_HERE/tools/png-colour" "$VCAM_DIR/idle.png" | cut -d' ' -f3)
    [ "$colour" = red ] || problems+=("the snapshot taken while idle is $colour, not red: $reply")
    info "a snapshot while idle took ${latency} s (camera start, 5 settling frames skipped, PNG): $reply"
else
    problems+=("a snapshot while idle failed: $reply")
fi
wait_until 30 vcam_holds_no_camera || problems+=("after the snapshot foldcamd still holds $(vcam_cameras_held)")
vcam_wait_readiness idle 10 || problems+=("after the snapshot readiness is '$(vcam_readiness)', not idle")
at=$(python3 -c 'import time; print(time.monotonic_ns())')
if reply=$(ctl snapshot --at "$at" "$VCAM_DIR/past.png" 2>&1); then
    problems+=("a snapshot of a past moment while idle succeeded: $reply")
elif [[ $reply != *idle* ]]; then
    problems+=("the refusal of a past moment while idle does not say the camera was idle: $reply")
else
    info "a past moment while idle: $reply"
fi
held=$(vcam_cameras_held)
[ -z "$held" ] || problems+=("after the refused snapshot foldcamd holds $held open")

# --- 5. a reader that opened before foldcamd started ---------------------------------------------
# The loopback keeps its format (keep_format) after foldcamd stops, so a reader can open it.
vcam_stop
reader=$VCAM_DIR/before.reader
events=$VCAM_DIR/before.events
rm -f "$events"
reader_start "$reader" || problems+=("with foldcamd stopped no reader could start on $E2E_LOOPBACK ($(tr '\n' ' ' < "$reader" 2> /dev/null))")
mark "$events" start red
started=$EPOCHREALTIME
if ! vcam_start; then
    problems+=("foldcamd did not start with a reader present")
fi
if wait_colour "$reader" red 30; then
    info "a reader present before foldcamd started got red frames $(seconds_since "$started") s after the daemon started"
else
    problems+=("the reader present before foldcamd started shows '$(last_colours "$reader" 5)', not red")
fi
vcam_wait_readiness ready 30 || problems+=("with a reader from before the start readiness is '$(vcam_readiness)'")
reader_stop
vcam_report "$name"
