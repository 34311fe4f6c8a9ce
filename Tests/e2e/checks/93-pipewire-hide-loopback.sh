# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 600
# The WirePlumber rule that hides foldcam's loopback (wireplumber/, docs/pipewire.md) on the real
# v4l2loopback, on two PipeWires in turn: Debian 12's PipeWire 0.3.65 and WirePlumber 0.4.13,
# which read the Lua form (main.lua.d), then bookworm-backports' PipeWire 1.4.2 and WirePlumber
# 0.5.8 (Tests/e2e/run unpacks them on the host; $E2E_PIPEWIRE_BACKPORTS), which read the
# wireplumber.conf.d form. foldcamd feeds /dev/video20 ("foldcam virtual camera") and a reader
# reads it, so that the loopback, loaded with exclusive_caps=1, announces capture (unfed it is an
# output device, which WirePlumber never makes a camera of). Then, for each PipeWire, PipeWire
# and WirePlumber run twice in a private session:
#   1. the rule turned off (an empty file of its name in the user's configuration): the fed
#      loopback is a camera node, as are the three vivid cameras;
#   2. the rule on (the installed package's with E2E_INSTALLED=1, else the work tree's, copied
#      to the user's configuration): the loopback's device is there with its card label, and
#      it has no node; the vivid cameras keep theirs.
# Both runs wait for the loopback's device to report its QUERYCAP answers: WirePlumber decides on
# the device's node in that same step, before the update goes out. The daemon's version in the
# graph must be the PipeWire meant. Results are named NAME-stock and NAME-backports; a backports
# PipeWire the host could not fetch fails them, saying why.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=pipewire-hide-loopback
session=
session_env=()
info() { echo "INFO $name-$1: $2"; }
cleanup() {
    [ -z "$session" ] || { kill -- -"$session" 2> /dev/null; wait "$session" 2> /dev/null; }
    mkdir -p "$E2E_LOGS/pipewire"
    local dir
    for dir in "$VCAM_DIR"/pw-*; do
        [ -d "$dir" ] || continue
        for log in "$dir"/*.log "$dir"/graph; do [ -e "$log" ] && cp "$log" "$E2E_LOGS/pipewire/$(basename "$dir")-$(basename "$log")"; done
    done
    vcam_cleanup
}
trap cleanup EXIT
for program in pipewire wireplumber pw-dump dbus-run-session; do
    command -v "$program" > /dev/null || { fail "$name" "$program is not installed (scripts/install-deps installs it on the host, whose root the guest shares)"; exit 0; }
done
# The rule each WirePlumber reads: 0.4 the Lua form, 0.5 the wireplumber.conf.d form.
declare -A rule_dir=([0.4]=main.lua.d [0.5]=wireplumber.conf.d)
declare -A rule_name=([0.4]=51-foldcam-hide-loopback.lua [0.5]=51-foldcam-hide-loopback.conf)
declare -A rule=()
for form in 0.4 0.5; do
    if [ "${E2E_INSTALLED:-0}" = 1 ]; then
        rule[$form]=/usr/share/wireplumber/${rule_dir[$form]}/${rule_name[$form]}
        [ -f "${rule[$form]}" ] || { fail "$name" "checking the installed packages, but ${rule[$form]} is missing (is foldcam-pipewire installed?)"; exit 0; }
    else
        rule[$form]=$REPO/wireplumber/${rule_dir[$form]}/${rule_name[$form]}
    fi
done

vcam_begin "$name" pipewire || exit 0
if ! v4l2-ctl -d "$E2E_LOOPBACK" -D | grep -A3 'Device Caps' | grep -q 'Video Capture'; then
    fail "$name" "$E2E_LOOPBACK does not announce capture while fed: $(v4l2-ctl -d "$E2E_LOOPBACK" -D | tr '\n' ' ')"
    exit 0
fi
cards=()
for camera in "${E2E_CAMERAS[@]}"; do cards+=("$(camera_node "$camera")"); done

# graph: the V4L2 devices ("device PATH CARD", once they carry the QUERYCAP answers), camera
# nodes ("node PATH") and the daemon's version ("core VERSION") PipeWire has, from pw-dump.
graph() {
    env "${PIPEWIRE_ENV[@]}" "${session_env[@]}" pw-dump 2> /dev/null | python3 -c '
import json, sys
try:
    objects = json.load(sys.stdin)
except ValueError:
    objects = []
for o in objects:
    if o.get("type") == "PipeWire:Interface:Core":
        print("core", (o.get("info") or {}).get("version"))
    props = (o.get("info") or {}).get("props") or {}
    if props.get("device.api") != "v4l2":
        continue
    if o.get("type") == "PipeWire:Interface:Device" and "api.v4l2.cap.card" in props:
        print("device", props.get("api.v4l2.path"), props["api.v4l2.cap.card"])
    elif o.get("type") == "PipeWire:Interface:Node":
        print("node", props.get("api.v4l2.path"))'
}
settled() { # the loopback's device reported, and the vivid cameras' nodes there
    local now node
    now=$(graph)
    grep -q "^device $E2E_LOOPBACK " <<< "$now" || return 1
    for node in "${cards[@]}"; do grep -qx "node $node" <<< "$now" || return 1; done
}

# run_session TAG on|off: PipeWire and WirePlumber ($PIPEWIRE_ENV's) under their own session bus,
# in a private runtime and configuration directory; WirePlumber $form reads its rule. Leaves the
# graph in $VCAM_DIR/pw-TAG/graph.
run_session() {
    local dir=$VCAM_DIR/pw-$1 started=$EPOCHREALTIME
    mkdir -p "$dir/config/wireplumber/${rule_dir[$form]}" "$dir/home"
    mkdir -m 0700 "$dir/run"
    if [ "$form" = 0.4 ]; then
        # The guest runs no systemd-logind (no /run/systemd/seats): WirePlumber 0.4's logind
        # plugin, which only its Bluetooth monitor loads, fails to start, and WirePlumber exits
        # ("failed to start systemd logind monitor: -2", then "disconnected from pipewire").
        # Bluetooth without it. 0.5 reports the seat offline and runs on.
        mkdir -p "$dir/config/wireplumber/bluetooth.lua.d"
        echo 'bluez_monitor.properties["with-logind"] = false' > "$dir/config/wireplumber/bluetooth.lua.d/51-foldcam-e2e-no-logind.lua"
    fi
    if [ "$2" = off ]; then
        : > "$dir/config/wireplumber/${rule_dir[$form]}/${rule_name[$form]}"
    elif [ "${E2E_INSTALLED:-0}" != 1 ]; then
        cp "${rule[$form]}" "$dir/config/wireplumber/${rule_dir[$form]}/"
    fi
    session_env=(HOME="$dir/home" XDG_RUNTIME_DIR="$dir/run" PIPEWIRE_RUNTIME_DIR="$dir/run"
        XDG_CONFIG_HOME="$dir/config" XDG_STATE_HOME="$dir/state" XDG_CACHE_HOME="$dir/cache")
    # WirePlumber once PipeWire's socket is there (it exits when it cannot connect).
    env "${PIPEWIRE_ENV[@]}" "${session_env[@]}" setsid dbus-run-session -- sh -c "pipewire > '$dir/pipewire.log' 2>&1 &
        until [ -S '$dir/run/pipewire-0' ]; do sleep 0.05; done
        WIREPLUMBER_DEBUG=3 wireplumber > '$dir/wireplumber.log' 2>&1 & wait" > "$dir/session.log" 2>&1 &
    session=$!
    local ok=0
    wait_until 120 settled && ok=1
    graph > "$dir/graph"
    settle_seconds=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    kill -- -"$session" 2> /dev/null
    wait "$session" 2> /dev/null
    session=
    [ "$ok" = 1 ] || {
        echo "session $1: the graph did not settle; graph: $(tr '\n' ';' < "$dir/graph")" >&2
        tail -n 20 "$dir/pipewire.log" "$dir/wireplumber.log" >&2
        return 1
    }
}

# check_pipewire stock|backports: both runs on that PipeWire, reported as $name-FLAVOUR.
check_pipewire() {
    local flavour=$1 test card off_seconds
    test="$name-$flavour"
    if ! pipewire_env "$flavour"; then
        fail "$test" "$PIPEWIRE_ENV_ERROR"
        return
    fi
    local pw_version=${PIPEWIRE_VERSIONS#PipeWire } wireplumber=${PIPEWIRE_VERSIONS##*WirePlumber }
    pw_version=${pw_version%%,*}
    form=0.5
    [[ $wireplumber == 0.4.* ]] && form=0.4
    local from=''
    [ "$flavour" = stock ] || from=" (from $E2E_PIPEWIRE_BACKPORTS_HOST)"
    info "$flavour" "$PIPEWIRE_VERSIONS$from: WirePlumber reads the $form rule ${rule[$form]}"
    if ! run_session "$flavour-off" off; then
        fail "$test" "rule off: PipeWire did not list the loopback's device and the vivid cameras' nodes within 120 s ($(tr '\n' ';' < "$VCAM_DIR/pw-$flavour-off/graph"))"
        return
    fi
    off_seconds=$settle_seconds
    if ! grep -qx "core $pw_version" "$VCAM_DIR/pw-$flavour-off/graph"; then
        fail "$test" "the PipeWire daemon that ran is not $pw_version: $(grep '^core' "$VCAM_DIR/pw-$flavour-off/graph")"
        return
    fi
    if grep -qx "node $E2E_LOOPBACK" "$VCAM_DIR/pw-$flavour-off/graph"; then
        pass "$test-visible-without-rule"
    else
        fail "$test-visible-without-rule" "with the rule off the fed loopback should be a camera node; graph: $(tr '\n' ';' < "$VCAM_DIR/pw-$flavour-off/graph")"
    fi
    if ! run_session "$flavour-on" on; then
        fail "$test" "rule on: PipeWire did not list the loopback's device and the vivid cameras' nodes within 120 s ($(tr '\n' ';' < "$VCAM_DIR/pw-$flavour-on/graph"))"
        return
    fi
    card=$(sed -n "s|^device $E2E_LOOPBACK ||p" "$VCAM_DIR/pw-$flavour-on/graph")
    if ! grep -qx "node $E2E_LOOPBACK" "$VCAM_DIR/pw-$flavour-on/graph" && [ "$card" = "foldcam virtual camera" ]; then
        pass "$test"
    else
        fail "$test" "with the rule (${rule[$form]}) the loopback ('$card') should have no node; graph: $(tr '\n' ';' < "$VCAM_DIR/pw-$flavour-on/graph")"
    fi
    info "$flavour" "sessions settled in ${off_seconds} s (rule off) and ${settle_seconds} s (rule on)"
    echo "$test: rule ${rule[$form]}; graph with it: $(tr '\n' ';' < "$VCAM_DIR/pw-$flavour-on/graph")" >&2
}

check_pipewire stock
check_pipewire backports
