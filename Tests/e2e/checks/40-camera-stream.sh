# shellcheck shell=bash source=../lib.sh
# Each tagged camera streams (mmap, 5 frames) and shows its own solid colour, so later checks can
# tell from the frames which camera fed the virtual camera.
. "$E2E_HERE/lib.sh"

udev_snapshot
for id in "${E2E_CAMERAS[@]}"; do
    name=camera-stream-$id
    node=$(camera_node "$id")
    if [ -z "$node" ]; then
        fail "$name" "no device tagged FOLDCAM_CAMERA=$id"
        continue
    fi
    raw=/tmp/$id.raw
    if ! timeout 20 v4l2-ctl -d "$node" --stream-mmap=4 --stream-count=5 --stream-to="$raw" >&2; then
        fail "$name" "v4l2-ctl could not stream 5 frames from $node"
        continue
    fi
    expected="${E2E_CAMERA_COLOUR[$id]} uniform"
    mapfile -t frames < <("$E2E_TOOLS/frame-colours" "$raw" 640 480)
    bad=$(printf '%s\n' "${frames[@]}" | grep -vc "^$expected ")
    if ((${#frames[@]} != 5)); then
        fail "$name" "read ${#frames[@]} frames from $node instead of 5"
    elif ((bad)); then
        fail "$name" "$bad of 5 frames from $node are not $expected (first: ${frames[0]})"
    else
        pass "$name"
    fi
    rm -f "$raw"
done
