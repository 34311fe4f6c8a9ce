# shellcheck shell=bash source=../lib.sh
# Taking over the loopback from earlier producers, found by its card label (no loopbackDevice):
# 1. after a write()-only producer with another format (tools/loop-producer, as ffmpeg would)
#    has exited, v4l2loopback 0.12.7 no longer offers its output side; foldcamd still finds it,
#    reclaims it and feeds it in its own format;
# 2. after foldcamd itself is killed while a reader reads (keep_format holds the format), a new
#    foldcamd finds it by label again and the reader sees the new daemon's frames;
# 3. a daemon whose rig needs another format, while that reader still holds the kept one, logs
#    an error naming both formats and keeps serving its socket.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/daemon.sh"  # loopback_reset
. "$E2E_HERE/tools/vcam.sh"

name=loopback-takeover
producer=
cleanup() {
    [ -z "$producer" ] || kill "$producer" 2> /dev/null
    vcam_cleanup
}
trap cleanup EXIT
export VCAM_BY_LABEL=1
problems=()

# 1. A write()-only producer at 320x240 leaves the loopback behind, its format kept
#    (keep_format set while it writes, as an earlier foldcamd would have).
loopback_reset  # whatever earlier checks left: a clean, output-only loopback
"$E2E_TOOLS/loop-producer" "$E2E_LOOPBACK" 320 240 25 magenta 50 > "$VCAM_DIR/producer.out" 2>&1 &
producer=$!
for _ in $(seq 50); do grep -q '^streaming' "$VCAM_DIR/producer.out" && break; sleep 0.1; done
v4l2-ctl -d "$E2E_LOOPBACK" -c keep_format=1 || problems+=("could not set keep_format on $E2E_LOOPBACK")
wait "$producer"
producer=
echo "INFO $name: after loop-producer exited, $E2E_LOOPBACK offers: $(v4l2-ctl -d "$E2E_LOOPBACK" -D | grep -A3 'Device Caps' | grep -v 'Device Caps' | tr -s '\t\n' '  ')"
vcam_begin "$name" takeover || exit 0
wait_colour "$reader" red 30 || problems+=("after taking over from loop-producer the reader shows '$(last_colours "$reader" 5)', not red")
geometry=$(awk '$1 == "format" { print $2 "x" $3 " " $4; exit }' "$reader")
[ "$geometry" = "640x480 YUYV" ] || problems+=("the reader got format '$geometry', not the daemon's 640x480 YUYV")
grep -q 'virtual camera: feeding' "$VCAM_LOG" || problems+=("the daemon did not say which loopback it feeds")

# 2. Killed and started again while the reader reads: found by label again.
mark "$events" pin-outer green
pin_hold outer
wait_colour "$reader" green 30 || problems+=("after pin outer the reader shows '$(last_colours "$reader" 5)', not green")
kill -9 "$VCAM_PID"
wait "$VCAM_PID" 2> /dev/null
VCAM_PID=
# The pin's holder goes too (one that lives on pins again after the restart: check 91).
pin_release
mark "$events" restart red
if ! vcam_start || ! vcam_wait_readiness ready 30; then
    problems+=("foldcamd did not become ready again after SIGKILL (readiness '$(vcam_readiness)')")
fi
wait_colour "$reader" red 30 || problems+=("after the restart by label the reader shows '$(last_colours "$reader" 5)', not red")

# 3. Another format while the reader holds the kept one: a named error, and the socket serves.
vcam_stop
python3 - "$E2E_HERE/rigs/duo-vivid.json" "$VCAM_DIR/duo-vivid-320.json" <<'PY'
import json, sys
rig = json.load(open(sys.argv[1]))
for camera in rig["cameras"]:
    camera["formats"] = [{"pixelFormats": ["YUYV"], "width": 320, "height": 240, "fps": 25}]
rig["id"] = "duo-vivid-320"
json.dump(rig, open(sys.argv[2], "w"))
PY
VCAM_RIG_FILE=$VCAM_DIR/duo-vivid-320.json vcam_start || problems+=("foldcamd on a 320x240 rig did not serve its socket")
for _ in $(seq 100); do grep -q 'keeps YUYV 640x480' "$VCAM_LOG" && break; sleep 0.1; done
grep -q 'keeps YUYV 640x480 from an earlier producer while a reader has it open, and the virtual camera needs YUYV 320x240' "$VCAM_LOG" \
    || problems+=("no error naming the kept and the needed format ($(grep -i 'virtual camera output' "$VCAM_LOG" | tail -n 1))")
ctl status > /dev/null 2>&1 || problems+=("foldcamd stopped answering after the loopback error")
kill -0 "$VCAM_READER_PID" 2> /dev/null || problems+=("the reader died")
reader_stop
changes=$(grep -c '^formatchange' "$reader")
errors=$(grep -c '^error' "$reader")
((changes == 0 && errors == 0)) || problems+=("the reader saw $changes format changes and $errors errors")
echo "INFO $name: reader format $geometry, $(grep -c '^frame ' "$reader") frames, $errors errors, $changes format changes"
vcam_report "$name"
