# shellcheck shell=bash source=../lib.sh
# The devices the daemon discovers through udev: the three vivid cameras tagged with rig camera
# ids, the loopback left untagged, the hinge tagged with its rig hinge id, the switch device.
. "$E2E_HERE/lib.sh"

udev_snapshot
problems=()
vivid=0
for dev in /sys/class/video4linux/video*; do
    [[ $(cat "$dev/name") == vivid-*-vid-cap ]] && vivid=$((vivid + 1))
done
((vivid == 3)) || problems+=("$vivid vivid capture devices instead of 3")
for id in "${E2E_CAMERAS[@]}"; do
    mapfile -t nodes < <(nodes_with_property video4linux FOLDCAM_CAMERA "$id")
    if ((${#nodes[@]} != 1)); then
        problems+=("FOLDCAM_CAMERA=$id is on ${#nodes[@]} devices (${nodes[*]:-none})")
        continue
    fi
    name=$(cat "/sys/class/video4linux/${nodes[0]##*/}/name")
    caps=$(udev_property "${nodes[0]}" ID_V4L_CAPABILITIES)
    [[ $name == vivid-*-vid-cap ]] || problems+=("$id is ${nodes[0]} named '$name', not a vivid capture device")
    [[ $caps == *:capture:* ]] || problems+=("$id (${nodes[0]}) has ID_V4L_CAPABILITIES '$caps'")
done
mapfile -t tagged < <(nodes_with_property video4linux FOLDCAM_CAMERA '*')
((${#tagged[@]} == 3)) || problems+=("${#tagged[@]} video4linux devices carry FOLDCAM_CAMERA instead of 3: ${tagged[*]}")
if ((${#problems[@]})); then fail cameras-tagged "$(IFS=';'; echo "${problems[*]}")"; else pass cameras-tagged; fi

problems=()
if [ -c "$E2E_LOOPBACK" ]; then
    name=$(cat "/sys/class/video4linux/${E2E_LOOPBACK##*/}/name")
    camera=$(udev_property "$E2E_LOOPBACK" FOLDCAM_CAMERA)
    [ "$name" = "foldcam virtual camera" ] || problems+=("$E2E_LOOPBACK is named '$name'")
    [ -z "$camera" ] || problems+=("$E2E_LOOPBACK carries FOLDCAM_CAMERA=$camera")
    [ -n "$(udev_property "$E2E_LOOPBACK" ID_V4L_CAPABILITIES)" ] \
        || problems+=("udev has no ID_V4L_CAPABILITIES for $E2E_LOOPBACK")
else
    problems+=("no $E2E_LOOPBACK")
fi
if ((${#problems[@]})); then fail loopback-not-a-camera "$(IFS=';'; echo "${problems[*]}")"; else pass loopback-not-a-camera; fi

if ! hinge=$(hinge_sysfs); then
    fail hinge-tagged "no IIO device named hinge"
elif [ "$(udev_property "$hinge" FOLDCAM_HINGE)" != "$E2E_HINGE" ]; then
    fail hinge-tagged "$hinge has FOLDCAM_HINGE='$(udev_property "$hinge" FOLDCAM_HINGE)', expected $E2E_HINGE"
else
    pass hinge-tagged
fi

if [ ! -c "${E2E_SWITCH_DEVICE:-}" ]; then
    fail switch-tagged "no uinput switch device node (${E2E_SWITCH_DEVICE:-none})"
elif [ "$(udev_property "$E2E_SWITCH_DEVICE" ID_INPUT_SWITCH)" != 1 ]; then
    fail switch-tagged "$E2E_SWITCH_DEVICE lacks ID_INPUT_SWITCH=1"
else
    pass switch-tagged
fi
