# shellcheck shell=bash source=../lib.sh
# `foldcamctl snapshot OUT.png` against the real, idle foldcamd returns a PNG of the current source's
# colour: red from inner-front when open, green from outer-front when pinned to outer. Frames are
# a camera permission (docs/security.md): uid 65534 outside the loopback node's group is refused
# with a message naming that group; the same uid in the group gets the PNG.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=virtual-camera-snapshot
trap vcam_cleanup EXIT
set_angle 180
# Nobody reads the loopback here: each snapshot starts the camera for itself (check 87 times it).
if ! vcam_start || ! vcam_wait_readiness idle 30; then
    fail "$name" "foldcamd did not start idle (readiness '$(vcam_readiness)')"
    cat "$VCAM_LOG" >&2
    exit 0
fi
problems=()
# from_source FILE SOURCE: takes a snapshot into FILE; true when the daemon says it came from
# SOURCE (the snapshot fails with `unavailable` until the virtual camera has shown a frame, and
# names the previous source until the new one's first frame is out). The reply is in $reply.
from_source() {
    reply=$(ctl snapshot "$1" 2>&1) && [[ $reply == *" from $2,"* ]]
}
# shot FILE COLOUR SOURCE: once a snapshot comes from the source camera (waited for, 30 s), it
# must be 640x480 of the colour.
shot() {
    local out reply
    if ! wait_until 30 from_source "$1" "$3"; then
        problems+=("no snapshot from $3 within 30 s (last reply: $reply)")
        return
    fi
    echo "$reply" >&2
    [[ $reply == *"640x480 from $3"* ]] || problems+=("snapshot reply '$reply' is not 640x480 from $3")
    out=$("$E2E_HERE/tools/png-colour" "$1") || { problems+=("$1 is not a PNG foldcam writes"); return; }
    read -r width height colour _ <<< "$out"
    [ "$width $height $colour" = "640 480 $2" ] || problems+=("snapshot from $3: '$out', expected 640 480 $2")
}
shot "$VCAM_DIR/inner.png" red inner-front
loopback_group=$(stat -c %G "$E2E_LOOPBACK")
loopback_gid=$(stat -c %g "$E2E_LOOPBACK")
as_nobody() { setpriv --reuid=65534 --regid=65534 "$@" -- "$FOLDCAM_BIN/foldcamctl" snapshot "$VCAM_DIR/nobody/shot.png" 2>&1; }
install -d -o 65534 -g 65534 "$VCAM_DIR/nobody"
if reply=$(as_nobody --clear-groups); then
    problems+=("uid 65534 outside group $loopback_group received a frame: $reply")
elif [[ $reply != *forbidden* || $reply != *"group $loopback_group (which owns $E2E_LOOPBACK)"* ]]; then
    problems+=("the refusal for uid 65534 does not name group $loopback_group: $reply")
fi
[ ! -e "$VCAM_DIR/nobody/shot.png" ] || problems+=("a refused snapshot left a file")
if ! reply=$(as_nobody --groups="$loopback_gid"); then
    problems+=("uid 65534 in group $loopback_group was refused: $reply")
elif [ "$("$E2E_HERE/tools/png-colour" "$VCAM_DIR/nobody/shot.png" | cut -d' ' -f3)" != red ]; then
    problems+=("uid 65534 in group $loopback_group got no red frame: $reply")
fi
pin_hold outer
shot "$VCAM_DIR/outer.png" green outer-front
vcam_report "$name"
