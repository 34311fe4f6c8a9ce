# shellcheck shell=bash source=../lib.sh
# Camera starts that take 3 s do not hold the virtual camera up. tools/camera-quirks.so delays
# every VIDIOC_STREAMON of foldcamd's capture streams by 3 s (a USB camera's start takes up to
# about a second; 3 s puts the quirk beyond anything a loaded TCG guest adds): through hinge
# 180 -> 0 -> 180 -> 0 -> 180 the producer's writes are never 2 s apart around a switch, with no
# reader error or format change and the expected colour after each switch. A producer that
# started cameras on the thread that writes the frames would leave a gap of 3 s or more at every
# switch. The longest time between writes is reported with each switch.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=virtual-camera-slow-start
trap vcam_cleanup EXIT
export FOLDCAM_QUIRK_SLOW_STREAMON_MS=3000
VCAM_PRELOAD=$E2E_TOOLS/camera-quirks.so vcam_begin "$name" slowstart || exit 0
problems=()
vcam_fold_twice
reader_stop
vcam_analyse
while IFS= read -r line; do problems+=("$line"); done < <(writes_over "$analysis" 2000)
vcam_report "$name"
