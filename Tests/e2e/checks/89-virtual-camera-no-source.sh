# shellcheck shell=bash source=../lib.sh
# No source: unbinding vivid (one platform device carries all three cameras) while the virtual
# camera streams takes every camera away. The output goes on with foldcamd's dark grey "camera
# unavailable" frame (its rate reported; asserted: never 2 s between two frames), the readiness
# topic says `interrupted` with a reason,
# and when vivid is bound again the virtual camera comes back by itself. Runs last: it re-creates
# the vivid devices (and configures them as guest-init does).
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=virtual-camera-no-source
driver=/sys/bus/platform/drivers/vivid
watcher=
# configure_vivid: what guest-init does (solid red, green, blue; 640x480 YUYV at 25 fps).
configure_vivid() {
    local dev name pattern
    for dev in /sys/class/video4linux/video*; do
        name=$(cat "$dev/name" 2> /dev/null)
        case $name in
            vivid-00[0-2]-vid-cap) pattern=$((7 + ${name:8:1})) ;;
            *) continue ;;
        esac
        v4l2-ctl -d "/dev/${dev##*/}" -c test_pattern="$pattern" -c osd_text_mode=2 \
            --set-fmt-video=width=640,height=480,pixelformat=YUYV --set-parm=25 > /dev/null 2>&1
    done
}
cleanup() {
    [ -z "$watcher" ] || kill "$watcher" 2> /dev/null
    vcam_cleanup
    [ -e "$driver/vivid.0" ] || echo vivid.0 > "$driver/bind" 2> /dev/null
    udevadm settle -t 10
    configure_vivid
}
trap cleanup EXIT
if [ ! -e "$driver/vivid.0" ]; then
    fail "$name" "no platform device vivid.0 bound to $driver"
    exit 0
fi
vcam_begin "$name" nosource || exit 0
ctl --json watch readiness > "$VCAM_DIR/nosource.watch" 2> /dev/null &
watcher=$!
problems=()
wait_colour "$reader" red 30 || problems+=("at start the reader shows '$(last_colours "$reader" 5)', not red")
vcam_settle "at start"
mark "$events" unbind darkgrey
echo vivid.0 > "$driver/unbind"
unbound=$EPOCHREALTIME
wait_colour "$reader" darkgrey 30 || problems+=("after unbinding vivid the reader shows '$(last_colours "$reader" 5)', not the dark grey 'camera unavailable' frame")
interrupted() { [[ $(vcam_readiness) == interrupted/* ]]; }
wait_until 20 interrupted || problems+=("without cameras readiness is '$(vcam_readiness)' after 20 s, not interrupted with a reason")
# The output goes on: 50 more 'camera unavailable' frames (two seconds' worth at 25 fps). Their
# rate is reported; asserted is only what a starved guest cannot break: none 2 s apart.
frames_after "$reader" 50 30 || problems+=("without cameras the reader got fewer than 50 frames in 30 s")
rate=$(awk -v t="$unbound" '$1 == "frame" && $3 > t + 1 && $4 == "darkgrey" { if (!n++) first = $3; last = $3 } END { if (n > 1) printf "%.1f", (n - 1) / (last - first); else print 0 }' "$reader")
longest=$(awk -v t="$unbound" '$1 == "frame" && $3 > t + 1 && $4 == "darkgrey" { if (n++ && $3 - last > gap) gap = $3 - last; last = $3 } END { printf "%.0f", gap * 1000 }' "$reader")
((longest <= 2000)) || problems+=("the 'camera unavailable' frames came up to $longest ms apart (bound 2000 ms)")
mark "$events" bind red
echo vivid.0 > "$driver/bind"
udevadm settle -t 10
configure_vivid
wait_colour "$reader" red 30 || problems+=("after binding vivid again the reader shows '$(last_colours "$reader" 5)', not red")
vcam_wait_readiness ready 10 || problems+=("after binding vivid again readiness is '$(vcam_readiness)', not ready")
vcam_settle "after binding vivid again"
reader_stop
# The subscriber's events: 'interrupted' with a reason, then 'ready' again (waited for: the
# watcher writes them as they come).
watched() { grep -q '"state":"interrupted","reason":"[A-Za-z]*"' "$VCAM_DIR/nosource.watch" && [[ $(tail -n 1 "$VCAM_DIR/nosource.watch") == *'"state":"ready"'* ]]; }
wait_until 20 watched || problems+=("the subscriber did not get readiness 'interrupted' with a reason, then 'ready' ($(tr '\n' ' ' < "$VCAM_DIR/nosource.watch"))")
kill "$watcher" 2> /dev/null
watcher=
interrupted=$(grep -o '"state":"interrupted","reason":"[A-Za-z]*"' "$VCAM_DIR/nosource.watch" | head -n 1)
vcam_analyse
echo "INFO $name: readiness event $interrupted; 'camera unavailable' frames at $rate fps (nominal 25), at most $longest ms apart"
vcam_report "$name" 60
