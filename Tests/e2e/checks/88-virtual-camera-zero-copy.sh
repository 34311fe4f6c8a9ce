# shellcheck shell=bash source=../lib.sh
# Zero-copy forwarding in foldcamd itself (issue 14 item 5): with v4l2loopback loaded with
# max_buffers=4 (guest-init) and vivid taking user memory, the daemon maps the loopback's output
# buffers, the fed camera captures into them (USERPTR) and each captured buffer is queued to the
# loopback as it is. Asserted from the daemon's own log: the output is mapped, inner-front starts
# zero-copy, outer-front after a fold and inner-front after the fold back end up zero-copy (each
# starts on its own buffers while the camera before it holds three of the four, and is reopened
# into the loopback's once they are back), and each one's frames reached the loopback in the
# buffer the camera captured into. The reader must see
# each camera's colour after each fold, with no error or format change (vcam-analyse). Then the
# same with "virtualCameraForwarding": "copy": the log names the config as the reason and the
# reader still gets red.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=virtual-camera-zero-copy
trap vcam_cleanup EXIT
# Zero-copy is the default ("virtualCameraForwarding": "auto"): the config does not name it.
VCAM_CONFIG_EXTRA=
vcam_begin "$name" zero-copy || exit 0
problems=()
expect_logged() {
    wait_until 30 vcam_logged "$1" || problems+=("$2: the daemon's log has no line matching '$1'")
}
expect_logged 'loopback output forwarding: zero-copy' "output"
wait_colour "$reader" red 30 || problems+=("at start the reader shows '$(last_colours "$reader" 5)', not red (inner-front)")
expect_logged "inner-front forwarding: zero-copy" "inner-front"
expect_logged "inner-front's frames reach the loopback with no copy" "inner-front"
vcam_settle "at start"
vcam_step fold-0 green set_angle 0
expect_logged "outer-front forwarding: one copy per frame \(the loopback's spare buffers are lent" "outer-front (while inner-front holds the pages)"
expect_logged "outer-front forwarding: zero-copy" "outer-front"
expect_logged "outer-front's frames reach the loopback with no copy" "outer-front"
vcam_step fold-180 red set_angle 180
# Its second stream: the pages the first one had came back when it stopped.
inner_zero_copy_twice() { (($(tac "$VCAM_LOG" | sed '/^--- foldcamd started at/q' | grep -c "inner-front's frames reach the loopback with no copy") >= 2)); }
wait_until 30 inner_zero_copy_twice || problems+=("after folding back, inner-front's second stream did not report zero-copy frames")
tac "$VCAM_LOG" | sed '/^--- foldcamd started at/q' | tac | grep 'forwarding\|no copy' | sed "s/^/INFO $name: /"
reader_stop
vcam_analyse
vcam_stop

# The copy path, asked for, and named as such.
VCAM_CONFIG_EXTRA=', "virtualCameraForwarding": "copy"'
if vcam_start && vcam_wait_readiness idle 30; then
    reader=$VCAM_DIR/zero-copy-off.reader
    if reader_start "$reader" && wait_colour "$reader" red 30; then
        expect_logged 'loopback output forwarding: one copy per frame \(virtualCameraForwarding is "copy"' "copy config"
        vcam_logged "no copy" && problems+=("with virtualCameraForwarding \"copy\" the daemon still reported zero-copy frames")
    else
        problems+=("copy config: the reader shows '$(last_colours "$reader" 5)', not red")
    fi
    reader_stop
else
    problems+=("copy config: foldcamd did not start idle")
fi
unset VCAM_CONFIG_EXTRA
vcam_report "$name" 60
