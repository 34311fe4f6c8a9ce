# shellcheck shell=bash source=../lib.sh
# Restart: foldcamd is killed with SIGKILL while a reader reads the virtual camera, then started
# again. The reader carries on (no error, same format: v4l2loopback's keep_format and
# sustain_framerate), and after the restart it shows the new daemon's source; a `foldcamctl
# watch` subscriber (the client library) reconnects by itself. The outage is printed as figures.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=virtual-camera-restart
watcher=
cleanup() {
    [ -z "$watcher" ] || kill "$watcher" 2> /dev/null
    vcam_cleanup
}
trap cleanup EXIT
vcam_begin "$name" restart || exit 0
ctl --json watch readiness > "$VCAM_DIR/watch.out" 2> "$VCAM_DIR/watch.err" &
watcher=$!
problems=()
wait_colour "$reader" red 30 || problems+=("at start the reader shows '$(last_colours "$reader" 5)', not red")
# Pinned to outer (green) before the kill. The pin's holder goes with the daemon (a
# `foldcamctl pin` that lives on pins again once the daemon is back: check 91), so the restarted
# daemon starts unpinned (red) and its first frame shows.
mark "$events" pin-outer green
pin_hold outer
wait_colour "$reader" green 30 || problems+=("after pin outer the reader shows '$(last_colours "$reader" 5)', not green")
vcam_settle "after pin outer"
mark "$events" sigkill green
kill -9 "$VCAM_PID"
wait "$VCAM_PID" 2> /dev/null
VCAM_PID=
killed=$EPOCHREALTIME
pin_release
# With no daemon, v4l2loopback's sustain_framerate keeps the reader's frames coming: 50 of them
# (two seconds' worth) before the daemon starts again.
frames_after "$reader" 50 30 || problems+=("with no daemon the reader got fewer than 50 frames in 30 s")
during=$(awk -v t="$killed" '$1 == "frame" && $3 > t { n++ } END { print n + 0 }' "$reader")
outage=$(awk -v a="$killed" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
mark "$events" restart red
restarted=$EPOCHREALTIME
if ! vcam_start; then
    problems+=("foldcamd did not start again")
    cat "$VCAM_LOG" >&2
fi
ready_after=$(awk -v a="$restarted" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", (b - a) * 1000 }')
wait_colour "$reader" red 30 || problems+=("after the restart the reader shows '$(last_colours "$reader" 5)', not red")
vcam_wait_readiness ready 10 || problems+=("after the restart readiness is '$(vcam_readiness)'")
vcam_settle "after the restart"
reader_stop
wait_until 30 grep -q reconnected "$VCAM_DIR/watch.err" \
    || problems+=("foldcamctl watch did not report reconnecting within 30 s ($(tr '\n' ' ' < "$VCAM_DIR/watch.err"))")
kill -0 "$watcher" 2> /dev/null || problems+=("foldcamctl watch exited when the daemon died")
vcam_analyse
echo "INFO $name: while no daemon ran (${outage} s) the reader got $during frames (v4l2loopback sustain_framerate); foldcamd answered ${ready_after} ms after its restart"
vcam_report "$name"
