# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 480
# Two virtual cameras at once (docs/virtual-camera.md, "Several virtual cameras"), the real
# foldcamd in hardware mode on the test rig: "viewed" follows the viewed display and feeds
# /dev/video20, "outer" is bound to the outer display and feeds /dev/video21, a reader on each.
#   1. open (180°): viewed shows inner-front (red), outer shows outer-front (green); each camera
#      is open once;
#   2. a pin to outer moves only the viewed camera, onto outer-front, which the outer camera
#      streams: the viewed camera is fed from that stream (one capture, two outputs), green on
#      both, outer-front open once, the viewed camera's readiness says hostedBy outer. Unpinned:
#      red again;
#   3. folded shut (0°) outer-front is all either wants: both show it (green), open once; when the
#      outer reader leaves, the outer camera keeps the stream open for the viewed one (never
#      closed and reopened under it: green throughout); opened again, the viewed camera goes
#      back to inner-front and outer-front, wanted by nobody, is closed;
#   4. nobody reads: no physical camera stays open.
# Reported: foldcamd's CPU time per output frame and its VmRSS with one reader, then two on two
# cameras, then two on one shared camera (each over 100 frames of the first reader, counted, not
# timed), and their ratios to one (docs/benchmarks.md, "Two virtual cameras").
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=two-virtual-cameras
problems=()
info() { echo "INFO $name: $*"; }
reader2_pid=
stop_outer_reader() {
    [ -n "$reader2_pid" ] || return 0
    kill "$reader2_pid" 2> /dev/null
    wait "$reader2_pid" 2> /dev/null
    reader2_pid=
}
cleanup() {
    stop_outer_reader
    vcam_cleanup
}
trap cleanup EXIT

export VCAM_LOOPBACKS="\"virtualCameras\": [
  {\"id\": \"viewed\", \"loopbackDevice\": \"$E2E_LOOPBACK\"},
  {\"id\": \"outer\", \"follows\": \"outer\", \"loopbackDevice\": \"$E2E_LOOPBACK2\"}]"
[ -c "$E2E_LOOPBACK2" ] || { fail "$name" "no second loopback $E2E_LOOPBACK2 (guest-init loads two)"; exit 0; }
vcam_begin "$name" viewed || exit 0
outer_reader=$VCAM_DIR/outer.reader
five() { printf "$1 %.0s" 1 2 3 4 5 | sed 's/ $//'; }

# held_count CAMERA: how many descriptors foldcamd has open on CAMERA's vivid node.
held_count() {
    local node
    node=$(camera_node "$1")
    find /proc/"$VCAM_PID"/fd -maxdepth 1 -lname "$node" 2> /dev/null | wc -l
}
# ticks: foldcamd's user + system CPU time so far, in clock ticks.
ticks() { awk '{ print $14 + $15 }' /proc/"$VCAM_PID"/stat; }
rss_kib() { awk '/^VmRSS:/ { print $2 }' /proc/"$VCAM_PID"/status; }
# measure LABEL: CPU per frame period and VmRSS over the next 100 frames of the first reader;
# sets cpu_ms and rss for the ratios.
measure() {
    local t0 t1 f0 f1 hz
    hz=$(getconf CLK_TCK)
    t0=$(ticks); f0=$(grep -c '^frame ' "$reader")
    frames_after "$reader" 100 120 || problems+=("$1: the first reader got fewer than 100 frames in 120 s")
    t1=$(ticks); f1=$(grep -c '^frame ' "$reader")
    cpu_ms=$(awk -v t=$((t1 - t0)) -v hz="$hz" -v f=$((f1 - f0)) 'BEGIN { printf "%.2f", (f ? t / hz * 1000 / f : 0) }')
    rss=$(rss_kib)
    info "$1: foldcamd used $cpu_ms ms CPU per frame period ($((t1 - t0)) ticks of 1/$hz s over $((f1 - f0)) frames), VmRSS $rss KiB"
}
# ratio LABEL: this measurement against the one-camera one (report only).
ratio() {
    info "$1 against one: CPU per frame x$(awk -v a="$cpu_ms" -v b="$one_cpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'), VmRSS x$(awk -v a="$rss" -v b="$one_rss" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
}
# outer_green LABEL: the outer reader got 25 more frames (30 s) and its last five are green.
outer_green() {
    frames_after "$outer_reader" 25 30 || problems+=("$1: the outer reader got fewer than 25 frames in 30 s")
    [ "$(last_colours "$outer_reader" 5)" = "$(five green)" ] || problems+=("$1: the outer reader shows '$(last_colours "$outer_reader" 5)', not green")
}

# 1. Open: each its own display's camera.
wait_colour "$reader" red 30 || problems+=("at start the viewed reader shows '$(last_colours "$reader" 5)', not red")
[ "$(vcam_cameras_held)" = "inner-front" ] || problems+=("with one reader foldcamd holds '$(vcam_cameras_held)', expected inner-front only")
measure "one virtual camera read"
one_cpu=$cpu_ms one_rss=$rss
"$E2E_TOOLS/loop-reader" "$E2E_LOOPBACK2" "$outer_reader" &
reader2_pid=$!
wait_colour "$outer_reader" green 40 || problems+=("the outer reader shows '$(last_colours "$outer_reader" 5)', not green (outer-front)")
format=$(head -n 1 "$outer_reader")
[ "$format" = "format 640 480 YUYV 614400" ] || problems+=("the outer reader found '$format', expected 640x480 YUYV")
measure "two virtual cameras read (two cameras)"
ratio "two virtual cameras, two cameras"
for camera in inner-front outer-front; do
    count=$(held_count "$camera")
    [ "$count" = 1 ] || problems+=("open: foldcamd has $camera open $count times, expected once")
done
status=$(ctl status 2>&1)
echo "$status" | grep -q "virtual camera  viewed: inner-front" || problems+=("foldcamctl status lacks the viewed camera: $(echo "$status" | grep 'virtual camera')")
echo "$status" | grep -q "virtual camera  outer: outer-front" || problems+=("foldcamctl status lacks the outer camera: $(echo "$status" | grep 'virtual camera')")

# 2. A pin moves the viewed camera onto the camera the outer one streams: fed from that stream,
#    not opened again.
pin_hold outer
wait_colour "$reader" green 40 || problems+=("pinned to outer the viewed reader shows '$(last_colours "$reader" 5)', not green (outer-front, shared with the outer camera)")
outer_green "pinned to outer"
wait_until 30 test "$(held_count inner-front)" = 0 || problems+=("pinned: foldcamd still has inner-front open")
[ "$(held_count outer-front)" = 1 ] || problems+=("pinned: foldcamd has outer-front open $(held_count outer-front) times, expected once")
ctl --json status 2> /dev/null | grep -q '"feed":{"camera":"outer-front","hostedBy":"outer"}' \
    || problems+=("pinned: the viewed camera's readiness does not say it is fed from the outer camera's stream: $(ctl --json status 2>&1 | grep -o '"feed":{[^}]*}' | tr '\n' ' ')")
ctl status 2>&1 | grep -q "virtual camera  viewed: .*fed from outer's outer-front" || problems+=("pinned: foldcamctl status does not say the viewed camera is fed from outer's outer-front: $(ctl status 2>&1 | grep 'virtual camera')")
vcam_logged "virtual camera viewed: outer-front is streaming for virtual camera outer; shared" || problems+=("pinned: the journal does not say outer-front is shared")
measure "two virtual cameras read (one shared camera)"
ratio "two virtual cameras, one shared camera"
pin_release
wait_colour "$reader" red 40 || problems+=("unpinned the viewed reader shows '$(last_colours "$reader" 5)', not red")

# 3. Folded shut: outer-front is the only camera either wants; both show it. The outer reader
#    leaves: the stream stays open in the outer camera's producer for the viewed one.
set_angle 0
wait_colour "$reader" green 40 || problems+=("folded shut the viewed reader shows '$(last_colours "$reader" 5)', not green (outer-front, shared)")
outer_green "folded shut"
wait_until 30 test "$(held_count inner-front)" = 0 || problems+=("folded shut foldcamd still has inner-front open")
[ "$(held_count outer-front)" = 1 ] || problems+=("folded shut: foldcamd has outer-front open $(held_count outer-front) times, expected once")
before=$(grep -c '^frame ' "$reader")
stop_outer_reader
wait_until 20 vcam_logged "its stream stays open for virtual camera viewed" \
    || problems+=("shut, outer reader gone: the journal does not say outer-front stays open for the viewed camera")
frames_after "$reader" 25 30 || problems+=("shut, outer reader gone: the viewed reader got fewer than 25 frames in 30 s")
others=$(grep '^frame ' "$reader" | tail -n +$((before + 1)) | awk '$4 != "green"' | wc -l)
[ "$others" = 0 ] || problems+=("shut, outer reader gone: the viewed reader saw $others frames other than green (the shared stream was interrupted)")
[ "$(held_count outer-front)" = 1 ] || problems+=("shut, one reader: foldcamd has outer-front open $(held_count outer-front) times, expected once")
vcam_wait_readiness ready 10 || problems+=("shut, one reader: the viewed camera's readiness is '$(vcam_readiness)', not ready")
set_angle 180
wait_colour "$reader" red 40 || problems+=("opened again the viewed reader shows '$(last_colours "$reader" 5)', not red")
wait_until 30 test "$(held_count outer-front)" = 0 || problems+=("opened again: nobody needs outer-front, yet foldcamd has it open")

# 4. Nobody reads: no physical camera stays open (after the grace period).
reader_stop
wait_until 30 vcam_holds_no_camera || problems+=("with no reader foldcamd still holds '$(vcam_cameras_held)'")

if ((${#problems[@]})); then
    fail "$name" "$(IFS=';'; echo "${problems[*]}")"
    tail -n 80 "$VCAM_LOG" >&2
else
    pass "$name"
fi
