# shellcheck shell=bash source=../lib.sh
# Benchmark of the virtual camera (issue 5 item 9, issue 6 item 3), run in the guest after the
# checks when FOLDCAM_E2E_BENCH=1 (Tests/e2e/run then installs ffmpeg and builds foldcamd in
# release mode). In the same run, forwarding 640x480 YUYV at 25 fps (vivid's webcam inputs), then
# 1280x720 and 1920x1080 YUYV at 30 fps (vivid reloaded with HDMI inputs) from vivid to the
# loopback:
#   - CPU time per frame of foldcamd's producer thread (and of the whole daemon) against
#     `ffmpeg -f v4l2 -i SRC -f v4l2 /dev/video20` doing the same, for both of foldcamd's paths:
#     zero-copy (the default where the drivers allow it: the camera captures into the loopback's
#     buffers) and one copy per frame ("virtualCameraForwarding": "copy");
#   - the switch gap (command to the first frame of the new camera on the loopback) and the
#     longest frame interval around a switch: foldcamd folding the hinge against the script
#     approach of restarting ffmpeg on the other camera.
# Prints INFO lines with the figures and the ratios (ours / ffmpeg), and one PASS/FAIL line for
# whether the benchmark ran (its figures are not asserted).
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=bench-virtual-camera
# The release build when Tests/e2e/run made one (FOLDCAM_BENCH_BIN), else the debug build.
if [ -x "${FOLDCAM_BENCH_BIN:-}/foldcamd" ] && [ -x "$FOLDCAM_BENCH_BIN/foldcamctl" ]; then
    FOLDCAM_BIN=$FOLDCAM_BENCH_BIN
fi
ffmpeg_pid=
cleanup() {
    [ -z "$ffmpeg_pid" ] || kill "$ffmpeg_pid" 2> /dev/null
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

# measure PID LOG [THREAD]: "MS_PER_FRAME READER_FRAMES READER_FPS" over $seconds. A frame is
# one the source delivered and the producer forwarded: the elapsed time at the source's $fps
# (both producers write one frame per source frame, foldcamd at its fixed rate). The reader may
# count more: v4l2loopback's sustain_framerate repeats the last frame to readers when a write
# comes late.
measure() {
    local c0 c1 f0 f1 t0 t1
    c0=$(cpu_ns "$1" "${3:-}")
    f0=$(frames_in "$2")
    t0=$EPOCHREALTIME
    sleep "$seconds"
    c1=$(cpu_ns "$1" "${3:-}")
    t1=$EPOCHREALTIME
    f1=$(frames_in "$2")
    awk -v c=$((c1 - c0)) -v f=$((f1 - f0)) -v a="$t0" -v b="$t1" -v fps="$fps" \
        'BEGIN { printf "%.3f %d %.1f", c / ((b - a) * fps) / 1e6, f, f / (b - a) }'
}
# summary ANALYSIS: "MEAN-GAP-MS MAX-LONGEST-INTERVAL-MS SWITCHES MAX-WRITE-SPACING-MS" over the
# switch lines of vcam-analyse (the last "?" when the reader logged no buffer timestamps).
summary() {
    echo "$1" | awk '/ gap / && !/^start/ { for (i = 1; i <= NF; i++) { if ($i == "gap") { g += $(i + 1); n++ } if ($i == "interval") { l = $(i + 1) > l ? $(i + 1) : l } if ($i == "most") { w = $(i + 1) > w ? $(i + 1) : w; t = 1 } } }
        END { printf "%.0f %.0f %d %s", n ? g / n : 0, l, n, t ? sprintf("%.0f", w) : "?" }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

# bench_size WxH FPS: foldcamd (rig $VCAM_RIG) and then ffmpeg forwarding that mode.
bench_size() {
    local size=$1 fps=$2 inner outer reader events colour angle node
    local ours_thread ours_frames ours_fps ours_process ours_analysis ours_gap ours_longest ours_switches ours_writes
    local ffmpeg_cpu ffmpeg_frames ffmpeg_fps ffmpeg_analysis ffmpeg_gap ffmpeg_longest ffmpeg_switches ffmpeg_writes
    local copy_thread copy_frames copy_fps copy_process path
    inner=$(camera_node inner-front)
    outer=$(camera_node outer-front)

    # --- foldcamd ---------------------------------------------------------------------------------
    set_angle 180
    # The camera starts when a reader comes: foldcamd idle, then the reader, then ready.
    if ! VCAM_CONFIG_EXTRA=', "virtualCameraForwarding": "auto"' vcam_start || ! vcam_wait_readiness idle 40; then
        problems+=("$size: foldcamd did not start idle")
        tail -n 20 "$VCAM_LOG" >&2
        vcam_stop
        return
    fi
    reader=$VCAM_DIR/bench-ours-$size.reader
    events=$VCAM_DIR/bench-ours-$size.events
    rm -f "$events"
    mark "$events" start red
    reader_start "$reader" || problems+=("$size: no frames from foldcamd")
    vcam_wait_readiness ready 40 || problems+=("$size: foldcamd did not become ready with a reader")
    wait_colour "$reader" red 10
    read -r ours_thread ours_frames ours_fps <<< "$(measure "$VCAM_PID" "$reader" foldcam-produce)"
    read -r ours_process _ <<< "$(measure "$VCAM_PID" "$reader")"
    path=$(vcam_logged "inner-front's frames reach the loopback with no copy" && echo zero-copy || echo "one copy (see the log's forwarding lines)")
    info "$size foldcamd ($path): producer thread $ours_thread ms CPU per forwarded frame (the reader got $ours_frames frames in ${seconds}s, $ours_fps fps); whole daemon $ours_process ms per frame"
    for angle in 0 180 0 180; do
        colour=$([ "$angle" = 0 ] && echo green || echo red)
        mark "$events" "fold-$angle" "$colour"
        set_angle "$angle"
        wait_colour "$reader" "$colour" 15 || problems+=("$size foldcamd: no $colour after fold to $angle")
        sleep 2
    done
    reader_stop
    ours_analysis=$("$E2E_HERE/tools/vcam-analyse" "$reader" "$events")
    echo "$ours_analysis" | sed "s/^/INFO $name: $size foldcamd: /"
    read -r ours_gap ours_longest ours_switches ours_writes <<< "$(summary "$ours_analysis")"
    vcam_stop

    # --- foldcamd with one copy per frame -----------------------------------------------------------
    set_angle 180
    if VCAM_CONFIG_EXTRA=', "virtualCameraForwarding": "copy"' vcam_start && vcam_wait_readiness idle 40; then
        reader=$VCAM_DIR/bench-ours-copy-$size.reader
        reader_start "$reader" || problems+=("$size: no frames from foldcamd (copy)")
        wait_colour "$reader" red 10
        read -r copy_thread copy_frames copy_fps <<< "$(measure "$VCAM_PID" "$reader" foldcam-produce)"
        read -r copy_process _ <<< "$(measure "$VCAM_PID" "$reader")"
        vcam_logged "no copy" && problems+=("$size: foldcamd forwarded zero-copy with virtualCameraForwarding \"copy\"")
        info "$size foldcamd (one copy): producer thread $copy_thread ms CPU per forwarded frame (the reader got $copy_frames frames in ${seconds}s, $copy_fps fps); whole daemon $copy_process ms per frame"
        reader_stop
    else
        problems+=("$size: foldcamd (copy) did not start idle")
    fi
    vcam_stop

    # --- ffmpeg -----------------------------------------------------------------------------------
    # start_ffmpeg NODE: ffmpeg forwarding NODE to the loopback, the way a script would.
    start_ffmpeg() {
        ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 -input_format yuyv422 -video_size "$size" \
            -framerate "$fps" -i "$1" -c:v rawvideo -pix_fmt yuyv422 -f v4l2 "$E2E_LOOPBACK" 2>> "$VCAM_DIR/ffmpeg.log" &
        ffmpeg_pid=$!
    }
    reader=$VCAM_DIR/bench-ffmpeg-$size.reader
    events=$VCAM_DIR/bench-ffmpeg-$size.events
    rm -f "$events"
    mark "$events" start red
    start_ffmpeg "$inner"
    # The loopback offers capture once ffmpeg writes: until then the reader cannot start (it
    # exits at once), so it is started again until it reads a frame.
    if ! wait_until 30 reader_start "$reader"; then
        problems+=("$size: no frames from ffmpeg ($(tail -n 3 "$VCAM_DIR/ffmpeg.log" | tr '\n' ' '))")
        kill "$ffmpeg_pid" 2> /dev/null
        wait "$ffmpeg_pid" 2> /dev/null
        ffmpeg_pid=
        return
    fi
    wait_colour "$reader" red 10
    read -r ffmpeg_cpu ffmpeg_frames ffmpeg_fps <<< "$(measure "$ffmpeg_pid" "$reader")"
    info "$size ffmpeg: $ffmpeg_cpu ms CPU per forwarded frame (the reader got $ffmpeg_frames frames in ${seconds}s, $ffmpeg_fps fps)"
    for node in "$outer" "$inner" "$outer" "$inner"; do
        colour=$([ "$node" = "$outer" ] && echo green || echo red)
        mark "$events" "restart-ffmpeg-$colour" "$colour"
        kill "$ffmpeg_pid"
        wait "$ffmpeg_pid" 2> /dev/null
        start_ffmpeg "$node"
        wait_colour "$reader" "$colour" 15 || problems+=("$size ffmpeg: no $colour after restarting on $node")
        sleep 2
    done
    reader_stop
    kill "$ffmpeg_pid" 2> /dev/null
    wait "$ffmpeg_pid" 2> /dev/null
    ffmpeg_pid=
    ffmpeg_analysis=$("$E2E_HERE/tools/vcam-analyse" "$reader" "$events")
    echo "$ffmpeg_analysis" | sed "s/^/INFO $name: $size ffmpeg: /"
    read -r ffmpeg_gap ffmpeg_longest ffmpeg_switches ffmpeg_writes <<< "$(summary "$ffmpeg_analysis")"

    info "$size YUYV $fps fps: CPU per frame ours (producer thread, $path) $ours_thread ms vs ffmpeg $ffmpeg_cpu ms: ratio $(ratio "$ours_thread" "$ffmpeg_cpu") (whole daemon $(ratio "$ours_process" "$ffmpeg_cpu"))"
    info "$size YUYV $fps fps: CPU per frame ours (producer thread, one copy) ${copy_thread:-?} ms vs ffmpeg $ffmpeg_cpu ms: ratio $(ratio "${copy_thread:-0}" "$ffmpeg_cpu") (whole daemon $(ratio "${copy_process:-0}" "$ffmpeg_cpu"))"
    info "$size switch gap ours $ours_gap ms (mean of $ours_switches folds) vs ffmpeg restart $ffmpeg_gap ms (mean of $ffmpeg_switches): ratio $(ratio "$ours_gap" "$ffmpeg_gap")"
    info "$size longest frame interval around a switch ours $ours_longest ms vs ffmpeg restart $ffmpeg_longest ms: ratio $(ratio "$ours_longest" "$ffmpeg_longest") (what the reader saw; v4l2loopback's sustain_framerate repeats the last frame when no new one comes)"
    info "$size longest time between two writes to the loopback around a switch ours $ours_writes ms vs ffmpeg restart $ffmpeg_writes ms: ratio $(ratio "$ours_writes" "$ffmpeg_writes")"
}

problems=()
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
if ((${#problems[@]})); then
    fail "$name" "$(IFS=';'; echo "${problems[*]}")"
    tail -n 20 "$VCAM_DIR/ffmpeg.log" >&2
else
    pass "$name"
fi
