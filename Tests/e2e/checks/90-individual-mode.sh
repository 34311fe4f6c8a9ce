# shellcheck shell=bash source=../lib.sh
# Individual camera mode with the real foldcamd: no loopback is fed, the cameras stay free for
# applications, and a camera whose capture needs 180° (outer-front is mounted upside down in
# the test rig) is turned by its own flip controls, which the devices topic reports.
. "$E2E_HERE/lib.sh"
# shellcheck source=../tools/daemon.sh
. "$E2E_HERE/tools/daemon.sh"

work=$E2E_DAEMON_DIR/individual
mkdir -p "$work"
echo 180 > "$E2E_HINGE_PARAMETER"
daemon_config "$work/config.json" "{\"rig\": \"$E2E_HERE/rigs/duo-vivid.json\", \"cameraMode\": \"individual\", \"loopbackLabel\": \"foldcam virtual camera\"}"
trap daemon_stop EXIT
if ! daemon_start "$work/config.json"; then
    fail individual-mode "$DAEMON_ERROR"
    exit 0
fi
outer=$(camera_node outer-front)
inner=$(camera_node inner-front)
control() { v4l2-ctl -d "$1" --get-ctrl "$2" 2> /dev/null | awk '{print $2}'; }

flips=
for _ in $(seq 100); do
    flips="$(control "$outer" horizontal_flip)/$(control "$outer" vertical_flip)/$(control "$inner" horizontal_flip)"
    [ "$flips" = "1/1/0" ] && break
    sleep 0.1
done
reported=$(ctl --json devices | python3 -c '
import json, sys
cameras = {c["rigCamera"]: c for c in json.load(sys.stdin)["cameras"]}
print(cameras["outer-front"].get("sensorFlipped"), cameras["inner-front"].get("sensorFlipped"))')
if [ "$flips" = "1/1/0" ] && [ "$reported" = "True False" ]; then
    pass "individual-mode-sensor-flip (outer-front flipped by hflip+vflip, inner-front left upright; devices topic agrees)"
else
    fail individual-mode-sensor-flip "controls outer h/v, inner h = $flips (want 1/1/0); devices sensorFlipped outer, inner = $reported (want True False)"
fi

# The daemon holds no camera: an application can stream from every one.
streams=0
for camera in "${E2E_CAMERAS[@]}"; do
    node=$(camera_node "$camera")
    if timeout 20 v4l2-ctl -d "$node" --stream-mmap --stream-count=3 --stream-to=/dev/null > /dev/null 2>&1; then
        streams=$((streams + 1))
    else
        echo "individual mode: streaming from $camera ($node) failed" >&2
    fi
done
if [ "$streams" = "${#E2E_CAMERAS[@]}" ]; then
    pass "individual-mode-cameras-free (an application streamed from all ${#E2E_CAMERAS[@]} cameras while foldcamd ran)"
else
    fail individual-mode-cameras-free "only $streams of ${#E2E_CAMERAS[@]} cameras could be streamed"
fi
