# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 400
# The WirePlumber rule that hides foldcam's loopback (wireplumber/, docs/pipewire.md) on the real
# v4l2loopback, with Debian 12's PipeWire 0.3.65 and WirePlumber 0.4.13: foldcamd feeds
# /dev/video20 ("foldcam virtual camera") and a reader reads it, so that the loopback, loaded
# with exclusive_caps=1, announces capture (unfed it is an output device, which WirePlumber
# never makes a camera of). Then PipeWire and WirePlumber run twice in a private session:
#   1. the rule turned off (an empty file of its name in the user's configuration): the fed
#      loopback is a camera node, as are the three vivid cameras;
#   2. the rule on (the installed package's with E2E_INSTALLED=1, else the work tree's, copied
#      to the user's configuration): the loopback's device is there with its card label, and
#      it has no node; the vivid cameras keep theirs.
# Both runs wait for the loopback's device to report its QUERYCAP answers: WirePlumber decides on
# the device's node in that same step, before the update goes out.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=pipewire-hide-loopback
rule_name=51-foldcam-hide-loopback.lua
session=
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
if [ "${E2E_INSTALLED:-0}" = 1 ]; then
    rule=/usr/share/wireplumber/main.lua.d/$rule_name
    [ -f "$rule" ] || { fail "$name" "checking the installed packages, but $rule is missing (is foldcam-pipewire installed?)"; exit 0; }
else
    rule=$REPO/wireplumber/main.lua.d/$rule_name
fi

vcam_begin "$name" pipewire || exit 0
if ! v4l2-ctl -d "$E2E_LOOPBACK" -D | grep -A3 'Device Caps' | grep -q 'Video Capture'; then
    fail "$name" "$E2E_LOOPBACK does not announce capture while fed: $(v4l2-ctl -d "$E2E_LOOPBACK" -D | tr '\n' ' ')"
    exit 0
fi
cards=()
for camera in "${E2E_CAMERAS[@]}"; do cards+=("$(camera_node "$camera")"); done

# graph: the V4L2 devices ("device PATH CARD", once they carry the QUERYCAP answers) and camera
# nodes ("node PATH") PipeWire has, from pw-dump.
graph() {
    pw-dump 2> /dev/null | python3 -c '
import json, sys
try:
    objects = json.load(sys.stdin)
except ValueError:
    objects = []
for o in objects:
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

# run_session TAG on|off: PipeWire and WirePlumber under their own session bus, in a private
# runtime and configuration directory; leaves the graph in $VCAM_DIR/pw-TAG/graph.
run_session() {
    local dir=$VCAM_DIR/pw-$1
    mkdir -p "$dir/config/wireplumber/main.lua.d" "$dir/config/wireplumber/bluetooth.lua.d" "$dir/home"
    mkdir -m 0700 "$dir/run"
    # The guest runs no systemd-logind (no /run/systemd/seats): WirePlumber 0.4's logind plugin,
    # which only its Bluetooth monitor loads, fails to start, and WirePlumber exits ("failed to
    # start systemd logind monitor: -2", then "disconnected from pipewire"). Bluetooth without it.
    echo 'bluez_monitor.properties["with-logind"] = false' > "$dir/config/wireplumber/bluetooth.lua.d/51-foldcam-e2e-no-logind.lua"
    if [ "$2" = off ]; then
        : > "$dir/config/wireplumber/main.lua.d/$rule_name"
    elif [ "$rule" != "/usr/share/wireplumber/main.lua.d/$rule_name" ]; then
        cp "$rule" "$dir/config/wireplumber/main.lua.d/"
    fi
    export HOME=$dir/home XDG_RUNTIME_DIR=$dir/run PIPEWIRE_RUNTIME_DIR=$dir/run XDG_CONFIG_HOME=$dir/config \
        XDG_STATE_HOME=$dir/state XDG_CACHE_HOME=$dir/cache
    # WirePlumber once PipeWire's socket is there (it exits when it cannot connect).
    setsid dbus-run-session -- sh -c "pipewire > '$dir/pipewire.log' 2>&1 &
        until [ -S '$dir/run/pipewire-0' ]; do sleep 0.05; done
        WIREPLUMBER_DEBUG=3 wireplumber > '$dir/wireplumber.log' 2>&1 & wait" > "$dir/session.log" 2>&1 &
    session=$!
    local ok=0
    wait_until 120 settled && ok=1
    graph > "$dir/graph"
    kill -- -"$session" 2> /dev/null
    wait "$session" 2> /dev/null
    session=
    export HOME=/root
    unset XDG_RUNTIME_DIR PIPEWIRE_RUNTIME_DIR XDG_CONFIG_HOME XDG_STATE_HOME XDG_CACHE_HOME
    [ "$ok" = 1 ] || {
        echo "session $1: the graph did not settle; graph: $(tr '\n' ';' < "$dir/graph")" >&2
        tail -n 20 "$dir/pipewire.log" "$dir/wireplumber.log" >&2
        return 1
    }
}

if ! run_session off off; then
    fail "$name" "rule off: PipeWire did not list the loopback's device and the vivid cameras' nodes within 120 s ($(tr '\n' ';' < "$VCAM_DIR/pw-off/graph"))"
    exit 0
fi
if grep -qx "node $E2E_LOOPBACK" "$VCAM_DIR/pw-off/graph"; then
    pass "$name-visible-without-rule"
else
    fail "$name-visible-without-rule" "with the rule off the fed loopback should be a camera node; graph: $(tr '\n' ';' < "$VCAM_DIR/pw-off/graph")"
fi

if ! run_session on on; then
    fail "$name" "rule on: PipeWire did not list the loopback's device and the vivid cameras' nodes within 120 s ($(tr '\n' ';' < "$VCAM_DIR/pw-on/graph"))"
    exit 0
fi
card=$(sed -n "s|^device $E2E_LOOPBACK ||p" "$VCAM_DIR/pw-on/graph")
if ! grep -qx "node $E2E_LOOPBACK" "$VCAM_DIR/pw-on/graph" && [ "$card" = "foldcam virtual camera" ]; then
    pass "$name"
else
    fail "$name" "with the rule ($rule) the loopback ('$card') should have no node; graph: $(tr '\n' ';' < "$VCAM_DIR/pw-on/graph")"
fi
echo "$name: rule $rule; graph with it: $(tr '\n' ';' < "$VCAM_DIR/pw-on/graph")" >&2
