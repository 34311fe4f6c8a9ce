# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 420
# Two virtual cameras at once (docs/virtual-camera.md, "Several virtual cameras"), the real
# foldcamd in hardware mode on the test rig: "inner" follows the inner display and feeds
# /dev/video20, "outer" follows the outer display and feeds /dev/video21, a reader on each.
#   1. open (180°): inner shows inner-front (red), outer shows outer-front (green);
#   2. folded shut (0°) the inner display is covered: inner shows the 'camera unavailable' frame
#      (darkgrey) while outer keeps showing green, its frames never stopping; open again: red;
#   3. a pin moves the viewed display only: both keep their colours;
#   4. each physical camera is open at most once in foldcamd, and none while nobody reads.
# Reported: foldcamd's CPU time per output frame and its VmRSS with one reader, then two (each
# measured over 100 frames of the inner reader, counted, not timed).
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=two-virtual-cameras
problems=()
info() { echo "INFO $name: $*"; }
reader2_pid=
cleanup() {
    [ -z "$reader2_pid" ] || { kill "$reader2_pid" 2> /dev/null; wait "$reader2_pid" 2> /dev/null; }
    vcam_cleanup
}
trap cleanup EXIT

export VCAM_LOOPBACKS="\"virtualCameras\": [
  {\"id\": \"inner\", \"follows\": \"inner\", \"loopbackDevice\": \"$E2E_LOOPBACK\"},
  {\"id\": \"outer\", \"follows\": \"outer\", \"loopbackDevice\": \"$E2E_LOOPBACK2\"}]"
[ -c "$E2E_LOOPBACK2" ] || { fail "$name" "no second loopback $E2E_LOOPBACK2 (guest-init loads two)"; exit 0; }
vcam_begin "$name" inner || exit 0
outer_reader=$VCAM_DIR/outer.reader

# held_count CAMERA: how many descriptors foldcamd has open on CAMERA's vivid node.
held_count() {
    local node
    node=$(camera_node "$1")
    find /proc/"$VCAM_PID"/fd -maxdepth 1 -lname "$node" 2> /dev/null | wc -l
}
# ticks: foldcamd's user + system CPU time so far, in clock ticks.
ticks() { awk '{ print $14 + $15 }' /proc/"$VCAM_PID"/stat; }
rss_kib() { awk '/^VmRSS:/ { print $2 }' /proc/"$VCAM_PID"/status; }
# measure LABEL: CPU per frame period and VmRSS over the next 100 frames of the inner reader.
measure() {
    local t0 t1 f0 f1 hz
    hz=$(getconf CLK_TCK)
    t0=$(ticks); f0=$(grep -c '^frame ' "$reader")
    frames_after "$reader" 100 120 || problems+=("$1: the inner reader got fewer than 100 frames in 120 s")
    t1=$(ticks); f1=$(grep -c '^frame ' "$reader")
    info "$1: foldcamd used $(awk -v t=$((t1 - t0)) -v hz="$hz" -v f=$((f1 - f0)) 'BEGIN { printf "%.2f", t / hz * 1000 / f }') ms CPU per frame period ($((t1 - t0)) ticks over $((f1 - f0)) frames), VmRSS $(rss_kib) KiB"
}

wait_colour "$reader" red 30 || problems+=("at start the inner reader shows '$(last_colours "$reader" 5)', not red")
[ "$(vcam_cameras_held)" = "inner-front" ] || problems+=("with one reader (inner) foldcamd holds '$(vcam_cameras_held)', expected inner-front only")
measure "one reader"

"$E2E_TOOLS/loop-reader" "$E2E_LOOPBACK2" "$outer_reader" &
reader2_pid=$!
wait_colour "$outer_reader" green 40 || problems+=("the outer reader shows '$(last_colours "$outer_reader" 5)', not green (outer-front)")
format=$(head -n 1 "$outer_reader")
[ "$format" = "format 640 480 YUYV 614400" ] || problems+=("the outer reader found '$format', expected 640x480 YUYV")
measure "two readers"
for camera in inner-front outer-front; do
    count=$(held_count "$camera")
    [ "$count" = 1 ] || problems+=("open: foldcamd has $camera open $count times, expected once")
done

# Folded shut: the covered inner display shows nobody; the outer camera carries on.
outer_before=$(grep -c '^frame ' "$outer_reader")
set_angle 0
wait_colour "$reader" darkgrey 40 || problems+=("folded shut the inner reader shows '$(last_colours "$reader" 5)', not darkgrey (camera unavailable)")
frames_after "$outer_reader" 25 30 || problems+=("folded shut the outer reader got fewer than 25 frames in 30 s")
[ "$(last_colours "$outer_reader" 5)" = "green green green green green" ] || problems+=("folded shut the outer reader shows '$(last_colours "$outer_reader" 5)', not green")
wait_until 30 test "$(held_count outer-front)" = 1 || problems+=("shut: foldcamd has outer-front open $(held_count outer-front) times, expected once")
set_angle 180
wait_colour "$reader" red 40 || problems+=("opened again the inner reader shows '$(last_colours "$reader" 5)', not red")
[ "$(last_colours "$outer_reader" 5)" = "green green green green green" ] || problems+=("opened again the outer reader shows '$(last_colours "$outer_reader" 5)', not green")
outer_after=$(grep -c '^frame ' "$outer_reader")
info "the outer reader got $((outer_after - outer_before)) frames while the inner camera went away and came back"

# A pin steers the viewed display; display-bound cameras keep theirs.
pin_hold outer
frames_after "$reader" 25 30 || problems+=("pinned the inner reader got fewer than 25 frames in 30 s")
[ "$(last_colours "$reader" 5)" = "red red red red red" ] || problems+=("pinned to outer the inner reader shows '$(last_colours "$reader" 5)', not red")
[ "$(last_colours "$outer_reader" 5)" = "green green green green green" ] || problems+=("pinned to outer the outer reader shows '$(last_colours "$outer_reader" 5)', not green")
pin_release

status=$(ctl status 2>&1)
echo "$status" | grep -q "virtual camera  inner: inner-front" || problems+=("foldcamctl status does not show the inner camera: $(echo "$status" | grep 'virtual camera')")
echo "$status" | grep -q "virtual camera  outer: outer-front" || problems+=("foldcamctl status does not show the outer camera: $(echo "$status" | grep 'virtual camera')")

# Nobody reads: no physical camera stays open (after each camera's grace period).
kill "$reader2_pid" 2> /dev/null; wait "$reader2_pid" 2> /dev/null; reader2_pid=
reader_stop
wait_until 30 vcam_holds_no_camera || problems+=("with no reader foldcamd still holds '$(vcam_cameras_held)'")

if ((${#problems[@]})); then
    fail "$name" "$(IFS=';'; echo "${problems[*]}")"
    tail -n 60 "$VCAM_LOG" >&2
else
    pass "$name"
fi
