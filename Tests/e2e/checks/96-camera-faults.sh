# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 300
# The camera paths under faults (issue 28 item 8), foldcamd in hardware mode on the default
# zero-copy forwarding with one reader (tools/loop-reader) throughout:
#   1. a full disk: the state and metrics directories on a tmpfs filled to the last page. The
#      metrics file and a persisted pin cannot be written: foldcamd logs it, leaves no temporary
#      file, applies the pin all the same and keeps serving; once space is freed the next pin and
#      the metrics file are written;
#   2. the fed camera unplugged mid-stream (vivid's platform device unbound: vivid's three
#      cameras share it, so all three go) and the hinge folded while no camera exists: the reader
#      gets the dark grey "camera unavailable" frame and foldcamd answers; bound again (new nodes,
#      udev tags them, guest-init's settings set again) the reader gets the camera the posture
#      now asks for (outer-front, green) on a new zero-copy stream, and after unfolding
#      inner-front again, with foldcamd's descriptors back to their count before the unplug;
#   3. `rmmod v4l2loopback` while foldcamd and the reader have the loopback open: the kernel
#      refuses (the module is in use). v4l2loopback 0.12.7 has no control device (later
#      versions' /dev/v4l2loopback) to remove one loopback, so the loopback cannot be unplugged
#      under foldcamd here: that fault is not covered.
# After each: the reader still gets frames and foldcamd answers `status`. At the end: the reader
# logged no error and no format change. Reported (INFO): each recovery's time, frames, descriptors.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=camera-faults
problems=()
info() { echo "INFO $name: $*"; }
seconds_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'; }
disk=$VCAM_DIR/disk
driver=/sys/bus/platform/drivers/vivid

# configure_vivid: what guest-init sets (a rebound vivid starts from its defaults): solid red,
# green, blue, no text, 640x480 YUYV at 25 fps (the format is refused on a node that streams:
# foldcamd sets its own then).
configure_vivid() {
    local dev name
    for dev in /sys/class/video4linux/video*; do
        name=$(cat "$dev/name" 2> /dev/null)
        [[ $name == vivid-00[0-2]-vid-cap ]] || continue
        v4l2-ctl -d "/dev/${dev##*/}" -c test_pattern=$((7 + ${name:8:1})) -c osd_text_mode=2 \
            --set-fmt-video=width=640,height=480,pixelformat=YUYV --set-parm=25 > /dev/null 2>&1
    done
}
cleanup() {
    vcam_cleanup
    set_angle 180
    if ! [ -e "$driver/vivid.0" ]; then
        echo vivid.0 > "$driver/bind"
        udevadm settle -t 30
        configure_vivid
    fi
    umount "$disk" 2> /dev/null
}
trap cleanup EXIT

# still_serving LABEL: the reader gets 25 more frames (30 s at most), foldcamd answers and runs.
still_serving() {
    frames_after "$reader" 25 30 || problems+=("$1: the reader got fewer than 25 frames in 30 s")
    ctl status > /dev/null 2>&1 || problems+=("$1: foldcamctl status got no answer")
    kill -0 "$VCAM_PID" 2> /dev/null || problems+=("$1: foldcamd exited")
}
# logged_since OFFSET PATTERN: how many lines of foldcamd's log after byte OFFSET match PATTERN.
logged_since() { tail -c +"$(($1 + 1))" "$VCAM_LOG" | grep -c -E "$2"; }
log_size() { stat -c %s "$VCAM_LOG"; }
descriptors() { find /proc/"$VCAM_PID"/fd -mindepth 1 -maxdepth 1 | wc -l; }
temporaries() { find "$disk" -name '.*.tmp' | head -n 5 | tr '\n' ' '; }

# --- 1. a full disk under the state and metrics directories --------------------------------
mkdir -p "$disk"
umount "$disk" 2> /dev/null
if ! mount -t tmpfs -o size=256k,mode=0755 tmpfs "$disk"; then
    fail "$name" "could not mount a tmpfs on $disk"
    exit 0
fi
mkdir -m 0755 "$disk/state" "$disk/metrics"
# Filled to the last page (dd stops at ENOSPC).
dd if=/dev/zero of="$disk/filler" bs=4k 2> /dev/null
free=$(df --output=avail -B1 "$disk" | tail -n 1)
((free == 0)) || problems+=("the tmpfs still has $free bytes free after filling it")
VCAM_CONFIG_EXTRA=", \"stateDirectory\": \"$disk/state\", \"metricsDirectory\": \"$disk/metrics\", \"metricsIntervalSeconds\": 1"
vcam_begin "$name" faults || exit 0
wait_colour "$reader" red 30 || problems+=("at start the reader shows '$(last_colours "$reader" 5)', not red")
wait_until 30 vcam_logged "inner-front's frames reach the loopback with no copy" \
    || problems+=("at start inner-front's frames did not reach the loopback with no copy (zero-copy forwarding)")
# The error named is the disk's (ENOSPC), not a refused directory.
wait_until 30 vcam_logged "cannot write $disk/metrics/foldcam.prom: .*No space left on device" \
    || problems+=("disk full: foldcamd did not log that it cannot write the metrics file for want of space")
ctl pin --persist outer > "$VCAM_DIR/pin-full.out" 2>&1 || problems+=("disk full: pin --persist outer failed: $(tr '\n' ' ' < "$VCAM_DIR/pin-full.out")")
wait_colour "$reader" green 30 || problems+=("disk full: after pin --persist outer the reader shows '$(last_colours "$reader" 5)', not green")
wait_until 30 vcam_logged "state: cannot write $disk/state/state.json: .*No space left on device" \
    || problems+=("disk full: foldcamd did not log that it cannot write the state file for want of space")
grep -o "cannot write $disk/[a-z]*/[a-z.]*: [^;(]*" "$VCAM_LOG" | sed "s/ *$//" | sort -u | sed "s/^/INFO $name: disk full: foldcamd logged: /"
still_serving "disk full"
leftovers=$(temporaries)
[ -z "$leftovers" ] || problems+=("disk full: temporary files left behind: $leftovers")
! [ -e "$disk/state/state.json" ] || problems+=("disk full: $disk/state/state.json exists ($(stat -c %s "$disk/state/state.json") bytes)")
freed=$EPOCHREALTIME
rm -f "$disk/filler"
ctl pin --persist outer > /dev/null 2>&1 || problems+=("space freed: pin --persist outer failed")
wait_until 30 grep -q '"outer"' "$disk/state/state.json" 2> /dev/null \
    || problems+=("space freed: $disk/state/state.json does not name the persisted pin on outer")
wait_until 30 grep -q '^foldcam_' "$disk/metrics/foldcam.prom" 2> /dev/null \
    || problems+=("space freed: $disk/metrics/foldcam.prom has no metric within 30 s")
info "disk full: metrics and the persisted pin written $(seconds_since "$freed") s after space was freed"
ctl unpin > /dev/null 2>&1 || problems+=("unpin failed")
wait_colour "$reader" red 30 || problems+=("after unpin the reader shows '$(last_colours "$reader" 5)', not red")
leftovers=$(temporaries)
[ -z "$leftovers" ] || problems+=("space freed: temporary files left behind: $leftovers")

# --- 2. the cameras unplugged mid-stream, the hinge folded, the cameras plugged in again -----
if ! [ -e "$driver/vivid.0" ]; then
    problems+=("no platform device vivid.0 bound to $driver")
else
    vcam_settle "before the unplug"
    fds0=$(descriptors)
    offset=$(log_size)
    unplugged=$EPOCHREALTIME
    echo vivid.0 > "$driver/unbind" || problems+=("could not unbind vivid.0")
    wait_colour "$reader" darkgrey 30 || problems+=("unplugged: the reader shows '$(last_colours "$reader" 5)', not the dark grey 'camera unavailable' frame")
    info "unplugged: the reader got 'camera unavailable' frames $(seconds_since "$unplugged") s after the unbind; readiness '$(vcam_readiness)'"
    still_serving "unplugged"
    set_angle 0
    still_serving "folded while unplugged"
    [[ " $(last_colours "$reader" 5) " == *" darkgrey darkgrey "* ]] || problems+=("folded while unplugged: the reader shows '$(last_colours "$reader" 5)'")
    plugged=$EPOCHREALTIME
    echo vivid.0 > "$driver/bind" || problems+=("could not bind vivid.0 again")
    udevadm settle -t 30
    settled=$(seconds_since "$plugged")
    configure_vivid
    configured=$(seconds_since "$plugged")
    wait_colour "$reader" green 60 || problems+=("plugged in again (folded): the reader shows '$(last_colours "$reader" 5)', not green (outer-front)")
    vcam_wait_readiness ready 30 || problems+=("plugged in again: readiness '$(vcam_readiness)', not ready")
    info "plugged in again: after the bind udev settled in $settled s, vivid was configured at $configured s, the reader showed outer-front at $(seconds_since "$plugged") s"
    outer_zero_copy() { (($(logged_since "$offset" "outer-front's frames reach the loopback with no copy") >= 1)); }
    wait_until 30 outer_zero_copy || problems+=("plugged in again: outer-front's new stream did not reach the loopback with no copy")
    still_serving "plugged in again"
    set_angle 180
    wait_colour "$reader" red 30 || problems+=("unfolded after the replug: the reader shows '$(last_colours "$reader" 5)', not red")
    inner_zero_copy() { (($(logged_since "$offset" "inner-front's frames reach the loopback with no copy") >= 1)); }
    wait_until 30 inner_zero_copy || problems+=("unfolded after the replug: inner-front's new stream did not reach the loopback with no copy")
    vcam_settle "unfolded after the replug"
    # The same state as before the unplug (unfolded, unpinned, one reader): the same descriptors
    # (the old nodes' and their buffers' all closed). Counted once settled: a camera closes late.
    fds_back() { (($(descriptors) == fds0)); }
    wait_until 30 fds_back || problems+=("foldcamd holds $(descriptors) descriptors after the unplug and replug, $fds0 before: $(find /proc/"$VCAM_PID"/fd -mindepth 1 -maxdepth 1 -printf '%l\n' | sed 's/[0-9]\+/N/g' | sort | uniq -c | sort -rn | head -n 5 | tr '\n' ' ')")
    info "unplug and replug: foldcamd's descriptors $fds0 before, $(descriptors) after"
fi

# --- 3. the loopback's module removed while in use ------------------------------------------
# The module has no version of its own in sysfs or modinfo; the package's is the module's.
version=$(dpkg-query -W -f '${Version}' v4l2loopback-dkms 2> /dev/null)
if rmmod v4l2loopback 2> "$VCAM_DIR/rmmod.err"; then
    problems+=("rmmod v4l2loopback succeeded while the loopback was open")
else
    info "rmmod v4l2loopback (v4l2loopback-dkms ${version:-unknown}) refused while in use: $(tr '\n' ' ' < "$VCAM_DIR/rmmod.err")(the module has no control device, /dev/v4l2loopback, to remove one loopback; later versions have)"
fi
still_serving "after rmmod v4l2loopback"

reader_stop
errors=$(grep -c '^error \|^formatchange ' "$reader")
((errors == 0)) || problems+=("the reader logged $errors errors or format changes: $(grep -m3 '^error \|^formatchange ' "$reader" | tr '\n' ' ')")
info "the reader read $(grep -c '^frame ' "$reader") frames ($(grep -c '^frame .* darkgrey ' "$reader") 'camera unavailable'); longest stall $(awk '$1 == "stall" && $2 > m { m = $2 } END { print m + 0 }' "$reader") ms"
vcam_report "$name" 60
