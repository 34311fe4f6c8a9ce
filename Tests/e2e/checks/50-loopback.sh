# shellcheck shell=bash source=../lib.sh
# A producer writing frames to the v4l2loopback device and a reader streaming them at the same
# time: the reader gets the producer's frames (solid magenta, a colour no vivid camera shows).
. "$E2E_HERE/lib.sh"

name=loopback-stream
out=/tmp/loop-producer.out
"$E2E_TOOLS/loop-producer" "$E2E_LOOPBACK" 640 480 30 magenta > "$out" &
producer=$!
trap 'kill $producer 2> /dev/null' EXIT
for _ in $(seq 50); do grep -q '^streaming' "$out" && break; sleep 0.1; done
if ! grep -q '^streaming' "$out"; then
    fail "$name" "the producer did not start writing to $E2E_LOOPBACK"
    exit 0
fi
if ! v4l2-ctl -d "$E2E_LOOPBACK" -D | grep -q 'Video Capture'; then
    fail "$name" "$E2E_LOOPBACK does not offer capture while a producer writes"
    exit 0
fi
raw=/tmp/loopback.raw
if ! timeout 20 v4l2-ctl -d "$E2E_LOOPBACK" --stream-mmap=4 --stream-count=5 --stream-to="$raw" >&2; then
    fail "$name" "v4l2-ctl could not read 5 frames from $E2E_LOOPBACK"
    exit 0
fi
mapfile -t frames < <("$E2E_TOOLS/frame-colours" "$raw" 640 480)
bad=$(printf '%s\n' "${frames[@]}" | grep -vc '^magenta uniform ')
if ((${#frames[@]} != 5)); then
    fail "$name" "read ${#frames[@]} frames instead of 5"
elif ((bad)); then
    fail "$name" "$bad of 5 frames are not the producer's magenta (first: ${frames[0]})"
elif ! kill -0 "$producer" 2> /dev/null; then
    fail "$name" "the producer stopped while the reader read"
else
    pass "$name"
fi
