# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 2000
# Benchmark of the virtual camera (issue 5 item 9, issue 6 item 3, issue 29 items 1 and 5), run
# in the guest after the checks when FOLDCAM_E2E_BENCH=1 (Tests/e2e/run then installs ffmpeg,
# builds foldcamd in release mode and samples the host's load into the share). At 640x480 YUYV
# 25 fps (vivid's webcam inputs), then 1280x720 and 1920x1080 YUYV 30 fps (vivid reloaded with
# HDMI inputs), forwarding vivid's camera to the loopback with a reader on it, four ways in
# alternating windows of the same boot (round 1 in this order, round 2 in the reverse one):
#   - bare: tools/bare-loop, the floor of zero-copy forwarding (DQBUF blocking, QBUF to the
#     loopback, QBUF back; nothing else);
#   - zero-copy: foldcamd, "virtualCameraForwarding": "auto" (the camera captures into the
#     loopback's buffers);
#   - copy: foldcamd, "virtualCameraForwarding": "copy" (one copy per frame);
#   - ffmpeg: `ffmpeg -f v4l2 -i SRC -f v4l2 /dev/video20`, the script approach.
# Each window: CPU per frame of foldcamd's producer thread and of the whole process (the bare
# loop and ffmpeg are one process each) over $seconds, the reader's fps, each as a ratio to the
# bare loop and to ffmpeg of the same round, and the host's load over the window; a window taken
# while another guest or a build ran on the host is marked LOADED.
# Switch latency (round 1): from the hinge write to the reader's first frame of the new camera,
# cold (a jump across the posture boundary) and pre-warmed (the hinge closing at 10°/s, so the
# daemon opens the camera ahead of the switch), against ffmpeg killed and restarted on the
# other camera, and against the camera's own start time measured by the bare loop.
# Prints INFO lines with the figures, and one PASS/FAIL line for whether the benchmark ran and
# every reader saw the right camera without errors (the figures are not asserted).
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=bench-virtual-camera
# The release build when Tests/e2e/run made one (FOLDCAM_BENCH_BIN), else the debug build.
if [ -x "${FOLDCAM_BENCH_BIN:-}/foldcamd" ] && [ -x "$FOLDCAM_BENCH_BIN/foldcamctl" ]; then
    FOLDCAM_BIN=$FOLDCAM_BENCH_BIN
fi
ffmpeg_pid=
bare_pid=
cleanup() {
    [ -z "$ffmpeg_pid" ] || kill "$ffmpeg_pid" 2> /dev/null
    [ -z "$bare_pid" ] || kill "$bare_pid" 2> /dev/null
    vcam_cleanup
}
trap cleanup EXIT
info() { echo "INFO $name: $*"; }
if ! command -v ffmpeg > /dev/null; then
    echo "SKIP $name: no ffmpeg (Tests/e2e/run installs it when FOLDCAM_E2E_BENCH=1)"
    exit 0
fi
info "foldcamd from $FOLDCAM_BIN"
seconds=${FOLDCAM_BENCH_SECONDS:-10}
HOSTLOAD=/run/e2e/hostload

# cpu_ns PID [THREAD_NAME]: CPU time used so far (ns) by the process, or by its thread of that
# name; from schedstat (ns) when the kernel keeps it, else from stat (clock ticks).
cpu_ns() {
    local pid=$1 thread=${2:-} total=0 task run
    for task in /proc/"$pid"/task/*; do
        [ -z "$thread" ] || [ "$(cat "$task/comm" 2> /dev/null)" = "$thread" ] || continue
        read -r run _ < "$task/schedstat" 2> /dev/null || run=0
        if ((run == 0)); then
            run=$(awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); print ($12 + $13) * 1e9 / hz }' "$task/stat")
        fi
        total=$((total + ${run%.*}))
    done
    echo "$total"
}
frames_in() { grep -c '^frame ' "$1"; }

# host_load BEFORE AFTER: the host's load over a window, from two lines of $HOSTLOAD (written
# each second by Tests/e2e/run: EPOCH LOAD1 LOAD5 LOAD15 BUSY_TICKS QEMU_TICKS OTHER_QEMUS
# BUILDS): "load L1->L2, others C CPUs, other guests N, builds N: quiet|LOADED (why)". Others'
# CPUs are the host's busy time less this guest's. LOADED: another guest or a build ran, or
# others kept 0.2 CPUs or more busy. The load average is shown, not judged: this guest's two
# virtual CPUs alone keep it near 2, and it trails a window by a minute.
host_load() {
    if [ -z "$1" ] || [ -z "$2" ]; then
        echo "host load unknown (no $HOSTLOAD)"
        return
    fi
    echo "$1 $2" | awk '{
        dt = $9 - $1; others = dt > 0 ? (($13 - $5) - ($14 - $6)) / 100 / dt : 0
        if (others < 0) others = 0
        guests = $7 > $15 ? $7 : $15; builds = $8 > $16 ? $8 : $16
        why = ""
        if (guests > 0) why = why ", another guest"
        if (builds > 0) why = why ", a build"
        if (others >= 0.2) why = why sprintf(", others %.1f CPUs", others)
        printf "host load %s->%s, others %.2f CPUs, other guests %d, builds %d: %s", $2, $10, others, guests, builds,
            why == "" ? "quiet" : "LOADED (" substr(why, 3) ")" }'
}

# measure PID LOG [THREAD]: over $seconds, "THREAD_MS PROCESS_MS READER_FRAMES READER_FPS|LOAD"
# (THREAD_MS = PROCESS_MS without THREAD). A frame is one the source delivered: the elapsed time
# at the source's $fps (every forwarder writes one frame per source frame). The reader may count
# more: v4l2loopback's sustain_framerate repeats the last frame when a write comes late.
measure() {
    local c0 c1 p0 p1 f0 f1 t0 t1 h0 h1
    h0=$(cat "$HOSTLOAD" 2> /dev/null)
    c0=$(cpu_ns "$1" "${3:-}")
    p0=$(cpu_ns "$1")
    f0=$(frames_in "$2")
    t0=$EPOCHREALTIME
    sleep "$seconds"
    c1=$(cpu_ns "$1" "${3:-}")
    p1=$(cpu_ns "$1")
    t1=$EPOCHREALTIME
    f1=$(frames_in "$2")
    h1=$(cat "$HOSTLOAD" 2> /dev/null)
    awk -v c=$((c1 - c0)) -v p=$((p1 - p0)) -v f=$((f1 - f0)) -v a="$t0" -v b="$t1" -v fps="$fps" \
        'BEGIN { printf "%.3f %.3f %d %.1f|", c / ((b - a) * fps) / 1e6, p / ((b - a) * fps) / 1e6, f, f / (b - a) }'
    host_load "$h0" "$h1"
}
# summary ANALYSIS: "MEAN-GAP-MS MAX-LONGEST-INTERVAL-MS SWITCHES MAX-WRITE-SPACING-MS" over the
# switch lines of vcam-analyse (the last "?" when the reader logged no buffer timestamps).
summary() {
    echo "$1" | awk '/ gap / && !/^start/ { for (i = 1; i <= NF; i++) { if ($i == "gap") { g += $(i + 1); n++ } if ($i == "interval") { l = $(i + 1) > l ? $(i + 1) : l } if ($i == "most") { w = $(i + 1) > w ? $(i + 1) : w; t = 1 } } }
        END { printf "%.0f %.0f %d %s", n ? g / n : 0, l, n, t ? sprintf("%.0f", w) : "?" }'
}
# gaps ANALYSIS PREFIX: the gaps (ms) of the switches whose label starts with PREFIX, space-separated.
gaps() { echo "$1" | awk -v p="$2" 'index($1, p) == 1 && / gap / { for (i = 1; i <= NF; i++) if ($i == "gap") printf "%s%s", sep, $(i + 1); sep = " " }'; }
mean() { echo "$*" | awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; if (NF) printf "%.0f", s / NF; else printf "?" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "") printf "%.2f", a / b; else print "n/a" }'; }

# record LABEL "THREAD PROCESS FRAMES FPS|LOAD": one window's figures, kept for the round's table.
declare -A thread_ms process_ms reader_fps window_load
record() {
    local figures=${2%%|*}
    read -r "thread_ms[$1]" "process_ms[$1]" _ "reader_fps[$1]" <<< "$figures"
    window_load[$1]=${2#*|}
}

# check_reader LABEL: the window's reader saw the right camera, no error, no format change.
check_reader() {
    local errors
    errors=$(grep -cE '^(error|formatchange) ' "$reader")
    ((errors == 0)) || problems+=("$size $1: the reader logged $errors errors or format changes ($(grep -m 1 -E '^(error|formatchange) ' "$reader"))")
}

# window_bare ROUND: the bare loop forwarding the inner camera.
window_bare() {
    local label=bare-$1 out=$VCAM_DIR/bare-$size-$1.out
    reader=$VCAM_DIR/bench-$label-$size.reader
    "$E2E_TOOLS/bare-loop" "$inner" "$E2E_LOOPBACK" "$size" "$fps" > "$out" 2>&1 &
    bare_pid=$!
    if ! wait_until 30 reader_start "$reader" || ! wait_colour "$reader" red 10; then
        problems+=("$size $label: no red frames from the bare loop ($(tr '\n' ' ' < "$out"))")
    else
        record "$label" "$(measure "$bare_pid" "$reader")"
        check_reader "$label"
    fi
    reader_stop
    kill "$bare_pid" 2> /dev/null
    wait "$bare_pid" 2> /dev/null
    bare_pid=
    grep -q '^end ' "$out" || problems+=("$size $label: the bare loop did not end cleanly ($(tr '\n' ' ' < "$out"))")
}

# window_ffmpeg ROUND [restarts]: ffmpeg forwarding the inner camera; with "restarts", then
# killed and started on the other camera four times, as a script would switch.
window_ffmpeg() {
    local label=ffmpeg-$1 node colour events
    reader=$VCAM_DIR/bench-$label-$size.reader
    events=$VCAM_DIR/bench-$label-$size.events
    rm -f "$events"
    mark "$events" start red
    start_ffmpeg "$inner"
    # The loopback offers capture once ffmpeg writes: until then the reader cannot start (it
    # exits at once), so it is started again until it reads a frame.
    if ! wait_until 30 reader_start "$reader" || ! wait_colour "$reader" red 10; then
        problems+=("$size $label: no red frames from ffmpeg ($(tail -n 3 "$VCAM_DIR/ffmpeg.log" | tr '\n' ' '))")
        reader_stop
        stop_ffmpeg
        return
    fi
    record "$label" "$(measure "$ffmpeg_pid" "$reader")"
    if [ "${2:-}" = restarts ]; then
        for node in "$outer" "$inner" "$outer" "$inner"; do
            colour=$([ "$node" = "$outer" ] && echo green || echo red)
            mark "$events" "restart-$colour" "$colour"
            stop_ffmpeg
            start_ffmpeg "$node"
            wait_colour "$reader" "$colour" 15 || problems+=("$size ffmpeg: no $colour after restarting on $node")
            frames_after "$reader" 25 30
        done
    fi
    reader_stop
    stop_ffmpeg
    check_reader "$label"
    if [ "${2:-}" = restarts ]; then
        ffmpeg_analysis=$("$E2E_HERE/tools/vcam-analyse" "$reader" "$events")
        echo "$ffmpeg_analysis" | sed "s/^/INFO $name: $size ffmpeg: /"
        ffmpeg_first=$("$E2E_HERE/tools/vcam-analyse" --settle-frames 1 "$reader" "$events")
    fi
}
# start_ffmpeg NODE: ffmpeg forwarding NODE to the loopback, the way a script would.
start_ffmpeg() {
    ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -input_format yuyv422 -video_size "$size" \
        -framerate "$fps" -i "$1" -c:v rawvideo -pix_fmt yuyv422 -f v4l2 "$E2E_LOOPBACK" 2>> "$VCAM_DIR/ffmpeg.log" &
    ffmpeg_pid=$!
}
stop_ffmpeg() {
    [ -n "$ffmpeg_pid" ] || return 0
    kill "$ffmpeg_pid" 2> /dev/null
    wait "$ffmpeg_pid" 2> /dev/null
    ffmpeg_pid=
}

# window_foldcamd MODE ROUND [switches]: foldcamd with "virtualCameraForwarding": MODE (auto:
# zero-copy; copy); with "switches", then the switch-latency sequence (switches).
window_foldcamd() {
    local mode=$1 label
    label=$([ "$mode" = auto ] && echo zero-copy || echo copy)-$2
    set_angle 180
    if ! VCAM_CONFIG_EXTRA=", \"virtualCameraForwarding\": \"$mode\"" vcam_start || ! vcam_wait_readiness idle 40; then
        problems+=("$size $label: foldcamd did not start idle")
        tail -n 20 "$VCAM_LOG" >&2
        vcam_stop
        return
    fi
    reader=$VCAM_DIR/bench-$label-$size.reader
    events=$VCAM_DIR/bench-$label-$size.events
    rm -f "$events" "$events.decided"
    mark "$events" start red
    if ! reader_start "$reader" || ! vcam_wait_readiness ready 40 || ! wait_colour "$reader" red 10; then
        problems+=("$size $label: no red frames from foldcamd (readiness '$(vcam_readiness)')")
    else
        record "$label" "$(measure "$VCAM_PID" "$reader" foldcam-produce)"
        if [ "$mode" = auto ]; then
            vcam_logged "frames reach the loopback with no copy" || problems+=("$size $label: foldcamd did not forward zero-copy")
        else
            ! vcam_logged "no copy" || problems+=("$size $label: foldcamd forwarded zero-copy with virtualCameraForwarding \"copy\"")
        fi
        [ "${3:-}" != switches ] || switches
    fi
    reader_stop
    check_reader "$label"
    vcam_stop
}

# switches: on the running foldcamd (reader $reader, events $events): two cold switches to the
# outer camera (the hinge at rest at 40° jumps to 20°) and two pre-warmed ones (60°, then 1° every
# 100 ms down to 10°), each back to 180° in between. Sets ours_analysis, ours_first, ours_log and
# cold_decision_ms, warm_decision_ms (hinge write to decision, ms).
switches() {
    local since colour round decided
    cold_decision_ms=() warm_decision_ms=()
    vcam_watch_start
    vcam_settle "$size at start"
    for round in 1 2; do
        # A short jump (20°) across the boundary from a hinge at rest: the device layer's reading
        # filter holds a jump back as long as a hinge takes to make it at 720°/s (28 ms here,
        # 250 ms for 180 -> 0), and nothing moved before it to predict the switch from.
        vcam_hinge 40
        wait_until 20 vcam_fold_is 40 || problems+=("$size: the daemon's hinge did not reach 40° within 20 s")
        vcam_settle "$size at 40°"
        since=$EPOCHREALTIME
        vcam_hinge 20
        wait_colour "$reader" green 30 || problems+=("$size: no green after the jump from 40° to 20°")
        if decided=$(vcam_switch_mark "$events.decided" "cold-$round" green "$since" outer-front); then
            cold_decision_ms+=("$decided")
        else
            problems+=("$size cold-$round: no hinge write found that made outer-front the source")
        fi
        vcam_settle "$size after the jump to 20°"
        since=$EPOCHREALTIME
        vcam_hinge 180
        wait_colour "$reader" red 30 || problems+=("$size: no red after the jump back to 180°")
        vcam_switch_mark "$events.decided" "unfold-$round" red "$since" inner-front > /dev/null
        vcam_settle "$size after the jump to 180°"
    done
    for round in 1 2; do
        vcam_hinge 60
        wait_until 20 vcam_fold_is 60 || problems+=("$size: the daemon's hinge did not reach 60° within 20 s")
        vcam_settle "$size at 60°"
        since=$EPOCHREALTIME
        # The pace is the input, not a wait: a hinge closing at 10°/s, which the daemon sees moving.
        for colour in $(seq 59 -1 10); do
            vcam_hinge "$colour"
            sleep 0.1
        done
        wait_colour "$reader" green 30 || problems+=("$size: no green after closing slowly")
        if decided=$(vcam_switch_mark "$events.decided" "prewarmed-$round" green "$since" outer-front); then
            warm_decision_ms+=("$decided")
        else
            problems+=("$size prewarmed-$round: no hinge write found that made outer-front the source")
        fi
        vcam_settle "$size after closing slowly"
        since=$EPOCHREALTIME
        vcam_hinge 180
        wait_colour "$reader" red 30 || problems+=("$size: no red after the jump back to 180°")
        vcam_switch_mark "$events.decided" "unfold-$((round + 2))" red "$since" inner-front > /dev/null
        vcam_settle "$size after the jump to 180°"
    done
    vcam_watch_stop
    vcam_logged 'opening outer-front ahead of a likely switch \(pre-warm\)' \
        || problems+=("$size: the slow folds did not pre-warm outer-front")
    # The daemon's account of each switch to outer-front, in order: cold, cold, pre-warmed, pre-warmed.
    ours_log=$(tac "$VCAM_LOG" | sed '/^--- foldcamd started at/q' | tac | grep 'virtual camera now shows outer-front, [0-9]* ms after the decision')
    [ "$(grep -c 'the camera took' <<< "$ours_log") $(grep -c 'pre-warmed' <<< "$ours_log")" = "2 2" ] \
        || problems+=("$size: the switches to outer-front were not two cold then two pre-warmed ($(tr '\n' '|' <<< "$ours_log"))")
    # The switches timed from the hinge write that caused them (vcam_switch_mark).
    sort -n "$events" "$events.decided" > "$events.all"
    ours_analysis=$("$E2E_HERE/tools/vcam-analyse" "$reader" "$events.all")
    echo "$ours_analysis" | sed "s/^/INFO $name: $size foldcamd: /"
    ours_first=$("$E2E_HERE/tools/vcam-analyse" --settle-frames 1 "$reader" "$events.all")
}

# camera_start NODE: the bare loop's start time of the camera at NODE (open to its first frame,
# ms), the median of three starts.
camera_start() {
    local starts=()
    for _ in 1 2 3; do
        starts+=("$(timeout 30 "$E2E_TOOLS/bare-loop" "$1" "$E2E_LOOPBACK" "$size" "$fps" 3 | awk '$1 == "start" { print $2 }')")
    done
    printf '%s\n' "${starts[@]}" | sort -n | awk 'NF { v[n++] = $1 } END { if (n) printf "%.0f", v[int(n / 2)]; else printf "?" }'
}

# table ROUND: the round's windows, each against the bare loop and ffmpeg of the same round.
table() {
    local r=$1 way bare ffmpeg key
    bare=${process_ms[bare-$r]:-}
    ffmpeg=${process_ms[ffmpeg-$r]:-}
    info "$size@$fps round $r: way: producer thread ms/frame (whole process), x bare loop thread (process), x ffmpeg thread (process), reader fps; host load in the window"
    for way in bare zero-copy copy ffmpeg; do
        key=$way-$r
        [ -n "${process_ms[$key]:-}" ] || { info "$size@$fps round $r: $way: no figures"; continue; }
        info "$size@$fps round $r: $way: ${thread_ms[$key]} ms (${process_ms[$key]}), x$(ratio "${thread_ms[$key]}" "$bare") (x$(ratio "${process_ms[$key]}" "$bare")) bare, x$(ratio "${thread_ms[$key]}" "$ffmpeg") (x$(ratio "${process_ms[$key]}" "$ffmpeg")) ffmpeg, ${reader_fps[$key]} fps; ${window_load[$key]}"
    done
}

# bench_size WxH FPS: every window at that mode, then the tables and the switch latency.
bench_size() {
    size=$1 fps=$2
    inner=$(camera_node inner-front)
    outer=$(camera_node outer-front)
    ours_analysis="" ours_first="" ours_log="" ffmpeg_analysis="" ffmpeg_first="" cold_decision_ms=() warm_decision_ms=()
    thread_ms=() process_ms=() reader_fps=() window_load=()
    set_angle 180
    local start_ms interval
    start_ms=$(camera_start "$outer")
    window_bare 1
    window_foldcamd auto 1 switches
    window_foldcamd copy 1
    window_ffmpeg 1 restarts
    window_ffmpeg 2
    window_foldcamd copy 2
    window_foldcamd auto 2
    window_bare 2
    table 1
    table 2

    interval=$((1000 / fps))
    local cold warm restart warm_decision cold_after warm_after cold_first warm_first restart_first log_cold log_warm log_start
    cold_first=$(gaps "$ours_first" cold-)
    warm_first=$(gaps "$ours_first" prewarmed-)
    restart_first=$(gaps "$ffmpeg_first" restart-)
    cold=$(gaps "$ours_analysis" cold-)
    warm=$(gaps "$ours_analysis" prewarmed-)
    restart=$(gaps "$ffmpeg_analysis" restart-)
    warm_decision=$(mean "${warm_decision_ms[@]}")
    # From the decision (the posture event at a subscriber) to the reader's first frame.
    cold_after=$(paste -d' ' <(tr ' ' '\n' <<< "$cold_first") <(printf '%s\n' "${cold_decision_ms[@]}") | awk 'NF == 2 { printf "%s%d", sep, $1 - $2; sep = " " }')
    warm_after=$(paste -d' ' <(tr ' ' '\n' <<< "$warm_first") <(printf '%s\n' "${warm_decision_ms[@]}") | awk 'NF == 2 { printf "%s%d", sep, $1 - $2; sep = " " }')
    log_cold=$(sed -n 's/.*now shows outer-front, \([0-9]*\) ms after the decision (the camera took.*/\1/p' <<< "$ours_log" | tr '\n' ' ')
    log_start=$(sed -n 's/.*the camera took \([0-9]*\) ms from open.*/\1/p' <<< "$ours_log" | tr '\n' ' ')
    log_warm=$(sed -n 's/.*now shows outer-front, \([0-9]*\) ms after the decision (pre-warmed.*/\1/p' <<< "$ours_log" | tr '\n' ' ')
    info "$size@$fps switch latency, hinge write (ffmpeg: kill) to the reader's first frame of the new camera: cold ${cold_first:-?} ms (mean $(mean "$cold_first"); target <= camera start $start_ms + $interval = $((${start_ms/\?/0} + interval)) ms), pre-warmed ${warm_first:-?} ms (mean $(mean "$warm_first"); target <= decision $warm_decision + $interval = $((${warm_decision/\?/0} + interval)) ms), ffmpeg restart ${restart_first:-?} ms (mean $(mean "$restart_first")): cold x$(ratio "$(mean "$cold_first")" "$(mean "$restart_first")"), pre-warmed x$(ratio "$(mean "$warm_first")" "$(mean "$restart_first")") ffmpeg"
    info "$size@$fps switch latency, decision (posture event at a subscriber) to the reader's first frame of the new camera: cold ${cold_after:-?} ms (target <= camera start $start_ms + $interval ms), pre-warmed ${warm_after:-?} ms (target <= $interval ms)"
    info "$size@$fps the camera's own start (bare loop, open to first frame, median of 3): $start_ms ms; hinge write to decision (posture event at a subscriber): cold ${cold_decision_ms[*]} ms, pre-warmed ${warm_decision_ms[*]} ms; the daemon's decision to feed: cold $log_cold ms (its camera start $log_start ms), pre-warmed $log_warm ms"
    info "$size@$fps switch gap (first of 3 frames, as before): cold ${cold:-?} ms, pre-warmed ${warm:-?} ms, ffmpeg restart ${restart:-?} ms"
    read -r _ ours_longest _ ours_writes <<< "$(summary "$ours_analysis")"
    read -r _ ffmpeg_longest _ ffmpeg_writes <<< "$(summary "$ffmpeg_analysis")"
    info "$size@$fps longest frame interval around a switch ours $ours_longest ms vs ffmpeg restart $ffmpeg_longest ms; longest time between two writes ours $ours_writes ms vs ffmpeg $ffmpeg_writes ms"
}

problems=()
# reload_hinge [PARAMETERS...]: the hinge module again, with PARAMETERS; false if it did not come.
reload_hinge() {
    { [ ! -d /sys/module/hinge ] || rmmod hinge; } && insmod "$E2E_TOOLS/hinge.ko" angle=180 "$@" \
        && udevadm settle -t 30 && wait_until 20 hinge_sysfs > /dev/null
}
# The hinge with an IIO buffer (buffered=1): foldcamd then wakes for the hinge only when it
# moves, so the whole-process figures are the frame path's, not those of polling a sysfs file
# every 20 ms (bench/idle-hardware.sh measures the polled hinge on its own).
reload_hinge buffered=1 || problems+=("the hinge module did not load with buffered=1")
# wanted SIZE: SIZE is among the sizes asked for (FOLDCAM_E2E_BENCH_SIZES on the host).
wanted() { [[ " ${BENCH_SIZES:-640x480 1280x720 1920x1080} " == *" $1 "* ]]; }
if wanted 640x480; then VCAM_RIG=duo-vivid bench_size 640x480 25; fi

# hdmi_mode WIDTH HEIGHT: vivid's three cameras at WIDTH x HEIGHT YUYV, 30 fps. vivid's webcam
# input cannot do 1280x720 at 30 fps (12.5 fps at most), nor 1920x1080; its HDMI input can, with
# CEA-861 timings (the entry of that size at 30.00 fps, else CVT timings). vivid must have been
# loaded with HDMI inputs and must not be streaming. The loopback is reloaded first: it keeps
# the last producer's format. False (with a problem recorded) if a camera refused.
hdmi_mode() {
    local width=$1 height=$2 dev vname vnode pattern index timings status=0
    modprobe -r v4l2loopback && modprobe v4l2loopback devices=1 video_nr=20 exclusive_caps=1 max_buffers=4 card_label="foldcam virtual camera" \
        || { problems+=("reloading v4l2loopback failed"); return 1; }
    udevadm settle -t 10
    for dev in /sys/class/video4linux/video*; do
        vname=$(cat "$dev/name")
        case $vname in vivid-00[0-2]-vid-cap) pattern=$((7 + ${vname:8:1})) ;; *) continue ;; esac
        vnode=/dev/${dev##*/}
        index=$(v4l2-ctl -d "$vnode" --list-dv-timings 2> /dev/null | awk -v w="$width" -v h="$height" '
            /^Index:/ { i = $2; aw = ah = 0 } /Active width:/ { aw = $3 } /Active height:/ { ah = $3 }
            /frames per second/ && aw == w && ah == h && /\(30\.00 frames/ { print i; exit }')
        timings=cvt,width=$width,height=$height,fps=30
        [ -z "$index" ] || timings=index=$index
        if ! v4l2-ctl -d "$vnode" --set-dv-bt-timings "$timings" >&2 \
            || ! v4l2-ctl -d "$vnode" -c test_pattern="$pattern" -c osd_text_mode=2 \
                --set-fmt-video=width="$width",height="$height",pixelformat=YUYV >&2; then
            status=1
            problems+=("$vname: cannot set ${width}x${height}p30 timings ($timings)")
            v4l2-ctl -d "$vnode" --list-dv-timings 2>&1 | head -n 20 >&2
        fi
    done
    if ((status == 0)); then
        v4l2-ctl -d "$(camera_node inner-front)" --get-dv-timings --get-fmt-video --get-parm >&2
    fi
    return $status
}

if wanted 1280x720 || wanted 1920x1080; then
    modprobe -r vivid && modprobe vivid n_devs=3 node_types=0x1,0x1,0x1 num_inputs=1,1,1 input_types=0x3,0x3,0x3 \
        || problems+=("reloading vivid with HDMI inputs failed")
    udevadm settle -t 10
    if wanted 1280x720 && hdmi_mode 1280 720; then VCAM_RIG=duo-vivid-720p bench_size 1280x720 30; fi
    if wanted 1920x1080 && hdmi_mode 1920 1080; then VCAM_RIG=duo-vivid-1080p bench_size 1920x1080 30; fi
fi
reload_hinge || problems+=("the hinge module did not load again without a buffer")
if ((${#problems[@]})); then
    fail "$name" "$(IFS=';'; echo "${problems[*]}")"
    tail -n 20 "$VCAM_DIR/ffmpeg.log" >&2
else
    pass "$name"
fi
