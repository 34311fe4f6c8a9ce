# shellcheck shell=bash source=../lib.sh
# Rotation by 180 degrees shows in the virtual camera's frames: the test rig mounts outer-front
# upside down (sensorRotation 180), so when it feeds the virtual camera its frames must come out
# turned. Its vivid device shows an asymmetric pattern for this check; a frame read straight from
# the camera (before the daemon runs) is compared with one read from the loopback. Twice: with
# the sensor's own flip controls (vivid has them; the daemon sets them while it feeds the camera),
# and with tools/camera-quirks.so hiding them (FOLDCAM_QUIRK_NO_FLIP), so the daemon turns the frames in software and
# leaves the controls alone.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

node=$(camera_node outer-front)
if [ -z "$node" ]; then
    fail virtual-camera-rotation "no device tagged FOLDCAM_CAMERA=outer-front"
    exit 0
fi
restore() {
    vcam_cleanup
    v4l2-ctl -d "$node" -c test_pattern=8 -c horizontal_flip=0 -c vertical_flip=0 2> /dev/null
}
trap restore EXIT
flips() { v4l2-ctl -d "$node" -C horizontal_flip -C vertical_flip | awk '{ printf "%s%s", sep, $2; sep = "," }'; }
flips_are() { [ "$(flips)" = "$1" ]; }

# rotation_case NAME HOW: HOW is "sensor" or "software".
rotation_case() {
    local name=$1 how=$2 native turned source rotation result flipped
    # 4: "100% Color Squares", asymmetric both ways (frame-turned checks that it is).
    v4l2-ctl -d "$node" -c test_pattern=4 -c horizontal_flip=0 -c vertical_flip=0 >&2
    native=$VCAM_DIR/outer-front.raw
    if ! timeout 20 v4l2-ctl -d "$node" --stream-mmap=4 --stream-skip=2 --stream-count=1 --stream-to="$native" >&2; then
        fail "$name" "could not read a frame from $node"
        return
    fi
    set_angle 180
    local no_flip=0
    [ "$how" = sensor ] || no_flip=1
    # The camera runs only while someone reads the loopback: a reader first.
    if ! FOLDCAM_QUIRK_NO_FLIP=$no_flip VCAM_PRELOAD=$E2E_TOOLS/camera-quirks.so vcam_start || ! vcam_wait_readiness idle 30 \
        || ! reader_start "$VCAM_DIR/rotation-$how.reader" || ! vcam_wait_readiness ready 30; then
        fail "$name" "foldcamd did not become ready with a reader (readiness '$(vcam_readiness)')"
        cat "$VCAM_LOG" >&2
        reader_stop
        return
    fi
    pin_hold outer
    # The event: the daemon hands outer-front's stream to the producer (it logs it).
    wait_until 30 vcam_logged 'virtual camera now shows outer-front' \
        || echo "$how: foldcamd did not log 'virtual camera now shows outer-front' within 30 s" >&2
    source=$(ctl --json status | sed -n 's/.*"virtualCamera":{"source":"\([a-z-]*\)".*/\1/p')
    rotation=$(ctl --json status | sed -n 's/.*"outer-front":{[^}]*"captureRotation":\([0-9]*\).*/\1/p')
    echo "$how: source $source, outer-front captureRotation '$rotation'" >&2
    local want_flips=1,1
    [ "$how" = sensor ] || want_flips=0,0
    # The sensor's flips are set before its stream feeds; with them hidden, nothing sets them.
    wait_until 10 flips_are "$want_flips"
    flipped=$(flips)
    turned=$VCAM_DIR/loopback-turned-$how.raw
    if [ "$source" != outer-front ]; then
        fail "$name" "after pin outer the virtual camera's source is '$source', not outer-front"
    elif [ "$flipped" != "$want_flips" ]; then
        fail "$name" "outer-front's horizontal_flip,vertical_flip are $flipped while it feeds the virtual camera, expected $want_flips"
    elif ! timeout 20 v4l2-ctl -d "$E2E_LOOPBACK" --stream-mmap=4 --stream-skip=3 --stream-count=1 --stream-to="$turned" >&2; then
        fail "$name" "could not read a frame from $E2E_LOOPBACK"
    elif ! result=$("$E2E_HERE/tools/frame-turned" "$native" "$turned" 640 480); then
        fail "$name" "the loopback's frame is not outer-front's turned by 180 (block luma differences: $result)"
        tail -n 40 "$VCAM_LOG" >&2
    else
        echo "INFO $name: flip controls $flipped, block luma differences: $result"
        pass "$name"
    fi
    reader_stop
    vcam_stop
}

rotation_case virtual-camera-rotation sensor
rotation_case virtual-camera-rotation-software software
