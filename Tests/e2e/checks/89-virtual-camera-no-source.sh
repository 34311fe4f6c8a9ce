# shellcheck shell=bash source=../lib.sh
# No source: unbinding vivid (one platform device carries all three cameras) while the virtual
# camera streams takes every camera away. The output goes on at the same rate with foldcamd's
# dark grey "camera unavailable" frame, the readiness topic says `interrupted` with a reason,
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
wait_colour "$reader" red 10 || problems+=("at start the reader shows '$(last_colours "$reader" 5)', not red")
sleep 1
mark "$events" unbind darkgrey
echo vivid.0 > "$driver/unbind"
unbound=$EPOCHREALTIME
wait_colour "$reader" darkgrey 15 || problems+=("after unbinding vivid the reader shows '$(last_colours "$reader" 5)', not the dark grey 'camera unavailable' frame")
readiness=
for _ in $(seq 50); do
    readiness=$(vcam_readiness)
    [[ $readiness == interrupted/* ]] && break
    sleep 0.2
done
[[ $readiness == interrupted/* ]] || problems+=("without cameras readiness is '$readiness', not interrupted with a reason")
sleep 2
rate=$(awk -v t="$unbound" '$1 == "frame" && $3 > t + 1 && $4 == "darkgrey" { if (!n++) first = $3; last = $3 } END { if (n > 1) printf "%.1f", (n - 1) / (last - first); else print 0 }' "$reader")
awk -v r="$rate" 'BEGIN { exit !(r >= 12.5) }' || problems+=("the 'camera unavailable' frames came at $rate fps, not about 25")
mark "$events" bind red
echo vivid.0 > "$driver/bind"
udevadm settle -t 10
configure_vivid
wait_colour "$reader" red 30 || problems+=("after binding vivid again the reader shows '$(last_colours "$reader" 5)', not red")
vcam_wait_readiness ready 10 || problems+=("after binding vivid again readiness is '$(vcam_readiness)', not ready")
sleep 1
reader_stop
kill "$watcher" 2> /dev/null
watcher=
interrupted=$(grep -o '"state":"interrupted","reason":"[A-Za-z]*"' "$VCAM_DIR/nosource.watch" | head -n 1)
[ -n "$interrupted" ] || problems+=("no readiness event 'interrupted' with a reason reached a subscriber ($(tr '\n' ' ' < "$VCAM_DIR/nosource.watch"))")
vcam_analyse
echo "INFO $name: readiness event $interrupted; 'camera unavailable' frames at $rate fps"
vcam_report "$name" 60
