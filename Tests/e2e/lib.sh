# shellcheck shell=bash disable=SC2034 # the variables are for the checks
# Helpers for the guest's checks (Tests/e2e/checks/*.sh source this file).
# A check prints "PASS name" or "FAIL name: reason" lines on stdout, "SKIP name: reason" for a
# check that cannot apply; anything for a person goes to stderr, which the host shows when the
# script reported a failure. guest-init gives the checks this environment:
#   REPO               the work tree (read-write, same path as on the host)
#   FOLDCAM_BIN        the host-built binaries (<build dir>/debug)
#   E2E_HERE           $REPO/Tests/e2e
#   E2E_TOOLS          the helpers built for this run: uinput-switch, loop-producer, frame-colours, hinge.ko
#   E2E_LOGS           the results directory shared with the host
#   E2E_SWITCH_DEVICE  the uinput switch device's /dev/input/eventN
#   E2E_SWITCH_FIFO    write "lid 0|1" or "tablet 0|1" lines here to toggle its switches (set_switch)
#   E2E_INSTALLED      1 when the checks run against the installed packages (scripts/check-package --e2e)
#   E2E_PIPEWIRE_BACKPORTS  bookworm-backports' PipeWire 1.4, WirePlumber 0.5 and libcamera 0.3,
#                      unpacked on the host by Tests/pipewire/backports-root (E2E_PIPEWIRE_BACKPORTS_HOST)
#                      and mounted read-only here; empty when the host could not fetch it, and then
#                      E2E_PIPEWIRE_BACKPORTS_ERROR says why (pipewire_env below runs programs on it).

# The rig cameras the test rules give to vivid-000, -001 and -002, and the colour each one shows.
E2E_CAMERAS=(inner-front outer-front back)
declare -A E2E_CAMERA_COLOUR=([inner-front]=red [outer-front]=green [back]=blue)
E2E_HINGE="fold"
E2E_LOOPBACK=/dev/video20
# The second loopback (guest-init), for a second virtual camera (check 89).
E2E_LOOPBACK2=/dev/video21

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

# pipewire_env stock|backports: sets PIPEWIRE_ENV to the NAME=VALUE words that run that PipeWire,
# WirePlumber and their tools (`env "${PIPEWIRE_ENV[@]}" COMMAND`; none for Debian 12's own), and
# PIPEWIRE_VERSIONS to "PipeWire X, WirePlumber Y" of the programs they run. Fails, saying why in
# PIPEWIRE_ENV_ERROR, when the backports root is missing (the host could not fetch it) or broken.
pipewire_env() {
    PIPEWIRE_ENV=() PIPEWIRE_VERSIONS='' PIPEWIRE_ENV_ERROR=''
    if [ "$1" = backports ]; then
        if [ -z "${E2E_PIPEWIRE_BACKPORTS:-}" ]; then
            PIPEWIRE_ENV_ERROR="no bookworm-backports PipeWire in the guest: ${E2E_PIPEWIRE_BACKPORTS_ERROR:-}"
            return 1
        fi
        mapfile -t PIPEWIRE_ENV < <(python3 "$REPO/Tests/pipewire/pwroot.py" "$E2E_PIPEWIRE_BACKPORTS")
        ((${#PIPEWIRE_ENV[@]})) || { PIPEWIRE_ENV_ERROR="Tests/pipewire/pwroot.py $E2E_PIPEWIRE_BACKPORTS failed"; return 1; }
    fi
    local pipewire wireplumber
    pipewire=$(env "${PIPEWIRE_ENV[@]}" pipewire --version 2>&1 | sed -n 's/.*Linked with libpipewire \(.*\)$/\1/p')
    wireplumber=$(env "${PIPEWIRE_ENV[@]}" wireplumber --version 2>&1 | sed -n 's/.*Linked with libwireplumber \(.*\)$/\1/p')
    if [ -z "$pipewire" ] || [ -z "$wireplumber" ]; then
        PIPEWIRE_ENV_ERROR="$1: pipewire --version or wireplumber --version failed: $(env "${PIPEWIRE_ENV[@]}" wireplumber --version 2>&1 | tail -n 2 | tr '\n' ' ')"
        return 1
    fi
    PIPEWIRE_VERSIONS="PipeWire $pipewire, WirePlumber $wireplumber"
}

# udev_property DEVNODE_OR_SYSPATH KEY: the value udev's database holds for KEY (empty if unset).
udev_property() {
    local where=$1 key=$2 option=-n
    [[ $where == /sys/* ]] && option=-p
    udevadm info -q property "$option" "$where" 2>/dev/null | sed -n "s/^$key=//p"
}

# udev_snapshot: keep one copy of udev's database (udevadm info --export-db) for the lookups
# below, which otherwise read it afresh each time. For scripts whose devices do not change.
udev_snapshot() { E2E_UDEV_DB=$(udevadm info --export-db); }
udev_db() {
    if [ -n "${E2E_UDEV_DB:-}" ]; then printf '%s\n' "$E2E_UDEV_DB"; else udevadm info --export-db; fi
}

# nodes_with_property SUBSYSTEM KEY VALUE: the device nodes (or /sys paths, for devices without a
# node) of SUBSYSTEM whose udev property KEY equals VALUE, one per line; VALUE '*' matches any
# value.
nodes_with_property() {
    udev_db | awk -v subsystem="$1" -v key="$2" -v value="$3" '
        BEGIN { RS = ""; FS = "\n" }
        {
            path = ""; node = ""; found = 0; right_subsystem = 0
            for (i = 1; i <= NF; i++) {
                if ($i ~ /^P: /) path = "/sys" substr($i, 4)
                else if ($i ~ /^E: DEVNAME=/) node = substr($i, 12)
                else if ($i == "E: SUBSYSTEM=" subsystem) right_subsystem = 1
                else if (substr($i, 1, length(key) + 4) == "E: " key "=" &&
                         (value == "*" || substr($i, length(key) + 5) == value)) found = 1
            }
            if (found && right_subsystem) print (node != "" ? node : path)
        }' | sort
}

# camera_node ID: the /dev/videoN that udev tags FOLDCAM_CAMERA=ID.
camera_node() { nodes_with_property video4linux FOLDCAM_CAMERA "$1" | head -n 1; }

# hinge_sysfs: the sysfs directory of the IIO device named "hinge".
hinge_sysfs() {
    local dev
    for dev in /sys/bus/iio/devices/iio:device*; do
        [ "$(cat "$dev/name" 2>/dev/null)" = hinge ] && { readlink -f "$dev"; return 0; }
    done
    return 1
}

# wait_until SECONDS COMMAND...: runs COMMAND every WAIT_POLL_SECONDS (0.05 s unless set) until
# it succeeds; false if it has not within SECONDS. How a check waits for the event, value or count
# it expects next: never a fixed sleep followed by an assertion (a loaded TCG guest is slow by an
# unknown factor), and the deadline is generous because reaching it means failing.
wait_until() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@"; do
        ((SECONDS < deadline)) || return 1
        sleep "${WAIT_POLL_SECONDS:-0.05}"
    done
}

# set_switch lid|tablet 0|1: makes the uinput switch device emit the change.
set_switch() { echo "$1 $2" > "$E2E_SWITCH_FIFO"; }
