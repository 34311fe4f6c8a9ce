# shellcheck shell=bash source=../lib.sh
# The hinge angle set through the module parameter reads back through the IIO sysfs channel,
# the way the daemon will read it; out-of-range angles are refused. The sampling frequency reads
# 50 Hz, takes 1 to 1000 Hz and refuses the rest; the default module has no buffer.
. "$E2E_HERE/lib.sh"

parameter=/sys/module/hinge/parameters/angle
if ! hinge=$(hinge_sysfs); then
    fail hinge-angle "no IIO device named hinge"
    exit 0
fi
problems=()
for angle in 90 0 45 360 180; do
    echo "$angle" > "$parameter" || problems+=("writing $angle to $parameter failed")
    raw=$(cat "$hinge/in_angl0_raw")
    [ "$raw" = "$angle" ] || problems+=("set $angle, in_angl0_raw reads '$raw'")
done
scale=$(cat "$hinge/in_angl0_scale" 2> /dev/null)
[ "$scale" = 0.017453293 ] || problems+=("in_angl0_scale reads '$scale', expected 0.017453293 (radians per degree)")
if echo 400 > "$parameter" 2> /dev/null; then
    problems+=("an angle of 400 was accepted")
fi
raw=$(cat "$hinge/in_angl0_raw")
[ "$raw" = 180 ] || problems+=("after refusing 400, in_angl0_raw reads '$raw' instead of 180")
frequency=$hinge/in_angl0_sampling_frequency
hz=$(cat "$frequency" 2> /dev/null)
[ "$hz" = 50 ] || problems+=("in_angl0_sampling_frequency reads '$hz', expected 50")
for wanted in 5 1000 1; do
    echo "$wanted" > "$frequency" 2> /dev/null || problems+=("writing $wanted to in_angl0_sampling_frequency failed")
    hz=$(cat "$frequency")
    [ "$hz" = "$wanted" ] || problems+=("set the sampling frequency to $wanted, it reads '$hz'")
done
for refused in 0 1001; do
    if echo "$refused" > "$frequency" 2> /dev/null; then problems+=("a sampling frequency of $refused was accepted"); fi
done
echo 50 > "$frequency" || problems+=("writing 50 to in_angl0_sampling_frequency failed")
[ ! -e "$hinge/scan_elements" ] || problems+=("the default hinge module has a buffer (scan_elements); it must stay polled")
if ((${#problems[@]})); then fail hinge-angle "$(IFS=';'; echo "${problems[*]}")"; else pass hinge-angle; fi
