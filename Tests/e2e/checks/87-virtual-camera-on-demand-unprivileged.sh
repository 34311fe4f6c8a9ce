# shellcheck shell=bash source=../lib.sh
# The virtual camera's reader detection as the shipped systemd unit runs it: foldcamd as an
# unprivileged user (uid 65534, group video) cannot see root's processes in /proc, so on
# v4l2loopback 0.12.7 it counts openers by probing max_openers. With a reader run by root
# (invisible to it): idle with no reader and no camera open; the reader's first red frame
# arrives (time from STREAMON reported, asserted within 30 s); closing it releases the camera no
# sooner than the 2 s grace period.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=virtual-camera-on-demand-unprivileged
dir=/tmp/vcam-unprivileged
# The daemon listens only in a directory of its own user.
rm -rf "$dir"
install -d -o 65534 -g 65534 -m 0755 "$dir"
export FOLDCAM_SOCKET=$dir/foldcam.sock
# foldcamctl trusts only a daemon run by root, foldcam or its own user: it talks as uid 65534 too.
ctl() { setpriv --reuid=65534 --regid=65534 --clear-groups "$FOLDCAM_BIN/foldcamctl" "$@"; }
log=$dir/foldcamd.log
pid=
cleanup() {
    reader_stop
    [ -z "$pid" ] || { kill "$pid" 2> /dev/null; wait "$pid" 2> /dev/null; }
    mkdir -p "$E2E_LOGS/vcam"
    cp "$log" "$E2E_LOGS/vcam/foldcamd-unprivileged.log" 2> /dev/null
}
trap cleanup EXIT
problems=()
info() { echo "INFO $name: $*"; }
seconds_since() { awk -v a="$1" -v b="${2:-$EPOCHREALTIME}" 'BEGIN { printf "%.2f", b - a }'; }
video=$(getent group video | cut -d: -f3)
if [ -z "$video" ]; then
    echo "SKIP $name: no group video"
    exit 0
fi
set_angle 180
cat > "$dir/foldcam.json" <<EOF
{"rig": "$E2E_HERE/rigs/duo-vivid.json", "loopbackDevice": "$E2E_LOOPBACK", "logLevel": "debug"}
EOF
chmod 0644 "$dir/foldcam.json"
setpriv --reuid=65534 --regid=65534 --groups="$video" "$FOLDCAM_BIN/foldcamd" --config "$dir/foldcam.json" --socket "$FOLDCAM_SOCKET" 2> "$log" &
pid=$!
if ! wait_until 40 vcam_wait_readiness idle 1; then
    fail "$name" "foldcamd as uid 65534 did not start idle (readiness '$(vcam_readiness)'; log: $(tail -n 3 "$log" | tr '\n' ' '))"
    cat "$log" >&2
    exit 0
fi
method=$(grep -o 'detected by [^;]*' "$log" | head -n 1)
info "as uid 65534, readers of $E2E_LOOPBACK $method"
[[ $method == *max_openers* ]] || problems+=("as uid 65534 foldcamd did not count openers by probing max_openers ($method)")
held=$(vcam_cameras_held "$pid")
[ -z "$held" ] || problems+=("with no reader foldcamd holds $held open")

reader=$dir/reader.log
reader_start "$reader" || problems+=("the reader got no frame from $E2E_LOOPBACK")
if wait_colour "$reader" red 30; then
    streamon=$(awk '$1 == "streamon" { print $2; exit }' "$reader")
    first_red=$(awk '$1 == "frame" && $4 == "red" { print $3; exit }' "$reader")
    info "a root reader's STREAMON to its first red frame: $(seconds_since "$streamon" "$first_red") s"
else
    problems+=("with a root reader the loopback shows '$(last_colours "$reader" 5)', not red")
fi
wait_until 10 vcam_holds_camera "$pid" || problems+=("with a reader foldcamd holds no camera open")
left=$EPOCHREALTIME
reader_stop
if wait_until 30 vcam_holds_no_camera "$pid"; then
    released=$(seconds_since "$left")
    info "the camera was released ${released} s after the reader closed (grace period 2 s)"
    awk -v t="$released" 'BEGIN { exit !(t >= 2.0) }' || problems+=("the camera stopped ${released} s after the reader left, before the grace period")
else
    problems+=("30 s after the reader left foldcamd still holds $(vcam_cameras_held "$pid")")
fi
if ((${#problems[@]})); then
    fail "$name" "$(IFS=';'; echo "${problems[*]}")"
    tail -n 40 "$log" >&2
else
    pass "$name"
fi
