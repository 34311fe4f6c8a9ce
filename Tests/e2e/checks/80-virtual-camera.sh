# shellcheck shell=bash source=../lib.sh
# The real foldcamd (hardware mode, test rig rigs/duo-vivid.json) feeds the virtual camera
# /dev/video20. A reader that opened it before the first fold keeps reading across every switch
# (IIO hinge 180 -> 0 -> 180: inner-front <-> outer-front; pin/unpin outer) with no error and no
# format change, and after each switch settles it reads the expected camera's colour; around each
# switch foldcamd never goes 200 ms without writing a frame (see below). Prints the switch gaps,
# the longest frame intervals and the longest time between writes as figures.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=virtual-camera-switching
trap vcam_cleanup EXIT
vcam_begin "$name" switching || exit 0
format=$(head -n 1 "$reader")
problems=()
[ "$format" = "format 640 480 YUYV 614400" ] || problems+=("the reader found '$format', expected 640x480 YUYV")
# step LABEL COLOUR COMMAND...: runs the command, waits for the colour to settle, lets it run 1 s.
step() {
    local label=$1 colour=$2
    shift 2
    mark "$events" "$label" "$colour"
    "$@"
    wait_colour "$reader" "$colour" 15 || problems+=("after $label the reader shows '$(last_colours "$reader" 5)', not $colour")
    sleep 1
}
wait_colour "$reader" red 10 || problems+=("at start the reader shows '$(last_colours "$reader" 5)', not red (inner-front)")
sleep 1
step fold-0 green set_angle 0
step fold-180 red set_angle 180
step fold-0-again green set_angle 0
step fold-180-again red set_angle 180
step pin-outer green ctl pin outer
step unpin red ctl unpin
reader_stop
analysis=$("$E2E_HERE/tools/vcam-analyse" "$reader" "$events")
status=$?
echo "$analysis" >&2
while IFS= read -r line; do problems+=("${line#problem }"); done < <(echo "$analysis" | grep '^problem ')
((status == 0)) || ((${#problems[@]})) || problems+=("vcam-analyse failed")
# The longest time between two frames foldcamd wrote around each switch, from the buffers'
# timestamps (v4l2loopback stamps each write). What the reader waits is no measure of it:
# v4l2loopback's sustain_framerate repeats the last frame once 1.5 intervals pass without a write,
# so a stalled producer shows as ~60 ms there. The issue's target, 1.5x the nominal 40 ms, cannot
# be asserted in this guest: under TCG on a shared 2-core host, writes were up to ~100 ms apart
# with no switch at all (the host deschedules the guest's vCPUs). 200 ms, five intervals, is twice
# that noise. vivid starts a stream in a few ms, so this catches only gross stalls; check 86 makes
# the camera starts slow (400 ms), where a producer that starts cameras itself fails it.
while IFS= read -r line; do problems+=("$line"); done < <(writes_over "$analysis" 200)
# The figures: INFO lines, which the host prints with the results.
echo "$analysis" | grep -v '^problem ' | sed "s/^/INFO $name: /"
if ((${#problems[@]})); then
    fail "$name" "$(IFS=';'; echo "${problems[*]}")"
    tail -n 60 "$VCAM_LOG" >&2
else
    pass "$name"
fi
