# shellcheck shell=bash source=../lib.sh
# The real foldcamd follows the uinput switch device through libinput: SW_LID closed folds the
# duo rig shut (hinge source lidSwitch) and opening it hands back to the hinge sensor; after a
# SIGHUP reload onto a convertible rig (whose tablet-mode switch means 360°), SW_TABLET_MODE on
# gives the tablet posture and off the sensor's angle. Each settled state is compared with
# `foldcamd scenario` for the same inputs.
. "$E2E_HERE/lib.sh"
# shellcheck source=../tools/daemon.sh
. "$E2E_HERE/tools/daemon.sh"

# The decisions do not depend on the virtual camera (80-* checks it): loopbackLabel names no
# device, so no producer competes for the guest's CPU (the loopback is skipped as an output node).
daemon_prepare foldcamd-lid-switch switches '"loopbackLabel": "no-producer"' 120 || exit 0
if [ ! -c "${E2E_SWITCH_DEVICE:-}" ]; then
    fail foldcamd-lid-switch "no uinput switch device"
    exit 0
fi
set_switch lid 0
set_switch tablet 0
cleanup() {
    set_switch lid 0
    set_switch tablet 0
    daemon_stop
}
trap cleanup EXIT
if ! daemon_start "$config"; then
    fail foldcamd-lid-switch "$DAEMON_ERROR"
    exit 0
fi

# duo: halfOpen at 120°, the lid closes (0°, outer display, inner occluded), opens (120° again).
follow_steps foldcamd-lid-switch "$work/duo-e2e.json" hinge=120@halfOpen/sensor lid=1@closed/lidSwitch \
    lid=0@halfOpen/sensor hinge=150 lid=1@closed/lidSwitch lid=0@open/sensor
if ((${#problems[@]})); then fail foldcamd-lid-switch "$(IFS=';'; echo "${problems[*]}")"; else pass foldcamd-lid-switch; fi

# Reload onto a convertible whose hinge is the test hinge ("fold") and whose cameras are the
# first two vivid devices (the third stays an extra camera); no accelerometers.
rig=$work/e2e-convertible.json
rig_with_hinge_fold convertible "$rig"
echo 100 > "$E2E_HINGE_PARAMETER"
daemon_config "$config" "{\"rig\": \"$rig\", \"loopbackLabel\": \"no-producer\"}"
kill -HUP "$DAEMON_PID"
if ! python3 "$E2E_SOCKET_TOOL" wait-state 30 "s['rig'] == 'e2e-convertible' and s['hingeSources']['fold'] == 'sensor' and all(c['available'] for c in s['cameras'].values())" \
        > /dev/null 2> "$work/reload.err"; then
    fail foldcamd-tablet-mode-switch "after SIGHUP onto e2e-convertible: $(tail -n 1 "$work/reload.err")"
    exit 0
fi
follow_steps foldcamd-tablet-mode-switch "$rig" hinge=100@laptop/sensor tablet=1@tablet/tabletModeSwitch \
    tablet=0@laptop/sensor hinge=300@tent/sensor tablet=1@tablet/tabletModeSwitch tablet=0@tent/sensor \
    lid=1@closed/lidSwitch lid=0@tent/sensor
if ((${#problems[@]})); then fail foldcamd-tablet-mode-switch "$(IFS=';'; echo "${problems[*]}")"; else pass foldcamd-tablet-mode-switch; fi
