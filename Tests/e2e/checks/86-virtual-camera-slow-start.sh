# shellcheck shell=bash source=../lib.sh
# Camera starts that take 400 ms do not hold the virtual camera up. tools/camera-quirks.so delays
# every VIDIOC_STREAMON of foldcamd's capture streams by 400 ms, as a USB camera's start can
# take; through hinge 180 -> 0 -> 180 -> 0 -> 180 the reader gets no frame interval longer than
# 200 ms around a switch (the bound of check 80, for the same reasons), no error and no format
# change, and the expected colour after each switch. A producer that started cameras on the
# thread that writes the frames would leave the reader a gap of 400 ms or more at every switch.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=virtual-camera-slow-start
trap vcam_cleanup EXIT
export FOLDCAM_QUIRK_SLOW_STREAMON_MS=400
VCAM_PRELOAD=$E2E_TOOLS/camera-quirks.so vcam_begin "$name" slowstart || exit 0
problems=()
vcam_fold_twice
reader_stop
vcam_analyse
while IFS= read -r line; do problems+=("$line"); done < <(writes_over "$analysis" 200)
vcam_report "$name"
