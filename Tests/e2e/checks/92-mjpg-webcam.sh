# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 480
# A laptop's UVC webcam that gives 1080p only as MJPG, next to an IR face-login camera
# (rigs/laptop-uvc-webcam.json, written as `v4l2-ctl --list-formats-ext` lists such cameras):
# the guest's third loopback, /dev/video22 ("foldcam fake webcam"), is the webcam, fed by ffmpeg
# with testsrc2 as MJPG (the streams Tests/e2e/run encodes), and tagged FOLDCAM_CAMERA=webcam by
# a rule this check adds and removes (the other checks see it untagged).
#   1. foldcamd --check-config passes, names the mode MJPG 1920x1080 decoded into YUYV, and keeps
#      the IR camera out of the virtual camera's pool;
#   2. a reader of the virtual camera gets 1920x1080 YUYV frames showing the pattern (mixed, and
#      each of the last 10 frames' mean Y'CbCr within 10 of the nearest frame of ffmpeg's own
#      decoding of the same stream), with foldcamd ready;
# then the same at 1280x720 (the webcam without its 1080p mode).
# Reported (INFO, never a bound): foldcamd's CPU time per written frame while it decodes, next to
# ffmpeg decoding the same loopback stream (`ffmpeg -threads 1 -f v4l2 -input_format mjpeg`, its
# user + system time over the frames, start and probing included), per size
# (docs/benchmarks.md, "MJPG decoding").
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=mjpg-webcam
webcam=/dev/video22
rule=/etc/udev/rules.d/99-foldcam-e2e-webcam.rules
info() { echo "INFO $name: $*"; }
problems=()
feeder=
stop_feeder() {
    [ -n "$feeder" ] || return 0
    kill "$feeder" 2> /dev/null
    wait "$feeder" 2> /dev/null
    feeder=
}
untag() {
    rm -f "$rule"
    udevadm control --reload
    udevadm trigger --action=change "/sys/class/video4linux/${webcam##*/}"
    udevadm settle -t 30
}
cleanup() {
    vcam_cleanup
    stop_feeder
    untag
}
trap cleanup EXIT

for tool in ffmpeg v4l2-ctl; do
    command -v "$tool" > /dev/null || { fail "$name" "no $tool in the guest (Tests/e2e/run installs it on the host)"; exit 0; }
done
[ -c "$webcam" ] || { fail "$name" "no $webcam (guest-init loads a third loopback, \"foldcam fake webcam\")"; exit 0; }

# cpu_ns PID: the process's CPU time so far (ns), from schedstat, else stat's clock ticks.
cpu_ns() {
    local task run total=0
    for task in /proc/"$1"/task/*; do
        read -r run _ < "$task/schedstat" 2> /dev/null || run=0
        ((run > 0)) || run=$(awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%d", ($12 + $13) * 1e9 / hz }' "$task/stat")
        total=$((total + run))
    done
    echo "$total"
}
# writes_in LOG FROM: distinct loopback sequence numbers in LOG's frame lines after line FROM (the
# frames the producer wrote; a frame v4l2loopback repeats keeps its number).
writes_in() { tail -n +"$(($2 + 1))" "$1" | awk '$1 == "frame" { seen[$10] = 1 } END { print length(seen) }'; }
# rearm_output: v4l2loopback 0.12.7 marks an opener as the writer only at VIDIOC_STREAMON and
# offers output again when a writer closes; ffmpeg writes with write(2), so once it and every
# reader have gone the device offers neither output nor capture, and the next ffmpeg's
# VIDIOC_G_FMT(OUTPUT) gets EINVAL. A fresh opener's STREAMON(OUTPUT) (refused for want of a
# format, but marked the writer) and its close restore output; a QUERYCAP then publishes the caps
# the v4l2 core checks ioctls against.
rearm_output() {
    python3 - "$webcam" <<'EOF'
import fcntl, os, struct, sys
VIDIOC_STREAMON = 0x40045612  # _IOW('V', 18, int)
fd = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.ioctl(fd, VIDIOC_STREAMON, struct.pack("i", 2))  # V4L2_BUF_TYPE_VIDEO_OUTPUT
except OSError:
    pass
os.close(fd)
EOF
    v4l2-ctl -d "$webcam" -D > /dev/null 2>&1 || true
}
opened_by_anyone() { find /proc/[0-9]*/fd -maxdepth 1 -lname "$webcam" 2> /dev/null | grep -q .; }
held_webcam() { find /proc/"$VCAM_PID"/fd -maxdepth 1 -lname "$webcam" 2> /dev/null | grep -q .; }
# streaming_size W H: the loopback offers capture, at W x H MJPG (the feeder of this size wrote).
streaming_size() {
    v4l2-ctl -d "$webcam" -D 2> /dev/null | grep -q 'Video Capture' || return 1
    v4l2-ctl -d "$webcam" --get-fmt-video 2> /dev/null | tr -d ' \t' | grep -q "^Width/Height:$1/$2$"
}

# run_size W H: one daemon run with the webcam streaming W x H MJPG.
run_size() {
    local w=$1 h=$2 size=$1x$2 stream=$E2E_TOOLS/testsrc2-$1x$2.mjpg rig=$E2E_HERE/rigs/laptop-uvc-webcam.json
    [ -s "$stream" ] || { problems+=("$size: no MJPG stream $stream (Tests/e2e/run encodes it)"); return; }
    # The 720p run: the same webcam without its 1080p mode and with 720p as MJPG only (the
    # loopback carries one format, the one ffmpeg writes).
    if [ "$h" != 1080 ]; then
        rig=$VCAM_DIR/laptop-uvc-webcam-$size.json
        python3 - "$E2E_HERE/rigs/laptop-uvc-webcam.json" "$rig" <<'EOF'
import json, sys
rig = json.load(open(sys.argv[1]))
webcam = rig["cameras"][0]
webcam["formats"] = [f for f in webcam["formats"] if f["height"] != 1080]
webcam["formats"][0]["pixelFormats"] = ["MJPG"]
json.dump(rig, open(sys.argv[2], "w"))
EOF
    fi
    stop_feeder
    wait_until 30 eval '! opened_by_anyone' || problems+=("$size: $webcam still open 30 s after the last run: $(find /proc/[0-9]*/fd -lname "$webcam" 2> /dev/null | tr '\n' ' ')")
    rearm_output
    # Paced at 3 frames a second, not the mode's 30: v4l2loopback's write() fills its buffers in
    # turn whether or not a reader still holds one (a UVC driver never refills a dequeued
    # buffer), and a starved guest's foldcamd took up to 450 ms to decode one 1080p frame. At
    # 30 fps the feeder lapped the module's 4 buffers within it, so foldcamd decoded a JPEG
    # whose start was overwritten by the next frame's: one frame, shown repeated, with a green
    # block and a mean 16 away from every frame of the stream (a CI run and a local loaded run;
    # alone on a quiet guest every frame was within 1). At 3 fps a lap takes 1.3 s.
    ffmpeg -nostdin -loglevel error -re -stream_loop -1 -f mjpeg -framerate 3 -i "$stream" -c:v copy \
        -f v4l2 "$webcam" 2> "$VCAM_DIR/feeder-$size.err" &
    feeder=$!
    if ! wait_until 30 streaming_size "$w" "$h"; then
        problems+=("$size: $webcam offers no $size capture 30 s after ffmpeg started feeding it ($(v4l2-ctl -d "$webcam" --get-fmt-video 2>&1 | tr '\n' ' ')): $(tr '\n' ' ' < "$VCAM_DIR/feeder-$size.err")")
        return
    fi
    # exclusive_caps: udev saw an output device at boot; the change event records it as a camera.
    echo 'SUBSYSTEM=="video4linux", ATTR{name}=="foldcam fake webcam", ENV{FOLDCAM_CAMERA}="webcam", ENV{FOLDCAM_MATCH}="ATTR{name}"' > "$rule"
    udevadm control --reload
    udevadm trigger --action=change "/sys/class/video4linux/${webcam##*/}"
    udevadm settle -t 30
    [ "$(camera_node webcam)" = "$webcam" ] || { problems+=("$size: udev does not tag $webcam FOLDCAM_CAMERA=webcam"); return; }
    v4l2-ctl -d "$webcam" --list-formats-ext >&2

    # 1. check-config, with the config vcam_start writes.
    cat > "$VCAM_DIR/check.json" <<EOF
{"rig": "$rig", "loopbackDevice": "$E2E_LOOPBACK", "logLevel": "debug", "sensorPollMilliseconds": 20}
EOF
    local out status
    out=$("$FOLDCAM_BIN/foldcamd" --check-config --config "$VCAM_DIR/check.json" 2>&1)
    status=$?
    echo "$out" >&2
    ((status == 0)) || problems+=("$size: foldcamd --check-config exited $status: $(echo "$out" | tail -n 2 | tr '\n' ' ')")
    echo "$out" | grep -q "the virtual camera: mode MJPG ${size}@30, decoded into YUYV" \
        || problems+=("$size: check-config does not name the mode MJPG $size decoded into YUYV: $(echo "$out" | grep 'the virtual camera:' | tr '\n' ' ')")
    echo "$out" | grep -q "camera ir is kept out of the virtual camera's pool: infrared" \
        || problems+=("$size: check-config does not say the IR camera is kept out of the pool")

    # 2. Streaming: the reader sees the decoded pattern.
    export VCAM_RIG_FILE=$rig
    vcam_begin "$name-$size" "webcam-$size" || { problems+=("$size: foldcamd did not stream (above)"); return; }
    local format
    format=$(head -n 1 "$reader")
    [ "$format" = "format $w $h YUYV $((w * h * 2))" ] || problems+=("$size: the reader found '$format', expected $size YUYV")
    frames_after "$reader" 10 60 || problems+=("$size: the reader got fewer than 10 frames in 60 s")
    local c0 c1 l0 writes
    l0=$(wc -l < "$reader")
    c0=$(cpu_ns "$VCAM_PID")
    frames_after "$reader" 30 90 || problems+=("$size: the reader got fewer than 30 more frames in 90 s")
    c1=$(cpu_ns "$VCAM_PID")
    writes=$(writes_in "$reader" "$l0")
    local ours
    ours=$(awk -v c=$((c1 - c0)) -v n="$writes" 'BEGIN { printf "%.2f", n ? c / n / 1e6 : 0 }')
    info "$size: foldcamd used $ours ms CPU per written frame while decoding ($writes frames written)"
    vcam_wait_readiness ready 10 || problems+=("$size: readiness '$(vcam_readiness)', not ready")
    local mean
    mean=$(grep '^frame ' "$reader" | tail -n 10 | awk '{ if ($5 != "mixed") bad++; y += $6; u += $7; v += $8; n++ }
        END { printf "%d %.0f %.0f %.0f", bad, y / n, u / n, v / n }')
    grep '^frame ' "$reader" | tail -n 10 | awk '{ print $5, $6, $7, $8, ($12 == "late" ? "late" : "-"), $10 }' > "$VCAM_DIR/ours-$size.txt"
    reader_stop
    wait_until 30 eval '! held_webcam' || problems+=("$size: with no reader foldcamd still holds the webcam")
    vcam_stop

    # ffmpeg decoding the same stream from the loopback: CPU, then three frames for the colours.
    local times frames=30 theirs reference
    times=$( { TIMEFORMAT='%3U %3S'; time ffmpeg -nostdin -loglevel error -threads 1 -f v4l2 -input_format mjpeg \
        -i "$webcam" -frames:v "$frames" -f null - 2> "$VCAM_DIR/ffmpeg-$size.err"; } 2>&1)
    theirs=$(awk -v u="${times% *}" -v s="${times#* }" -v n="$frames" 'BEGIN { printf "%.2f", (u + s) * 1000 / n }')
    info "$size: ffmpeg used $theirs ms CPU per decoded frame ($frames frames, start included); foldcamd/ffmpeg $(awk -v a="$ours" -v b="$theirs" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
    # The colours of every frame of the stream file itself (testsrc2 moves, so each of our frames
    # is compared with the nearest of them; read back from the loopback, a starved guest could
    # hand ffmpeg a frame the feeder is overwriting).
    if ffmpeg -nostdin -loglevel error -f mjpeg -i "$stream" -pix_fmt yuyv422 \
        -f rawvideo -y "$VCAM_DIR/ffmpeg-$size.raw" 2>> "$VCAM_DIR/ffmpeg-$size.err"; then
        "$E2E_TOOLS/frame-colours" "$VCAM_DIR/ffmpeg-$size.raw" "$w" "$h" | awk '{ print $3, $4, $5 }' > "$VCAM_DIR/theirs-$size.txt"
        rm -f "$VCAM_DIR/ffmpeg-$size.raw"
        # Over our last 10 frames, each one's distance (largest Y'CbCr difference) to its nearest
        # frame of the stream: "worst near" (near: how many within 10), or "-1 0" when one of
        # ours is not mixed. Each must be within 10: a wrong decoding (chroma swapped or lost, a
        # wrong stride's smear, a JPEG overwritten while decoded: see the feeder above) is not.
        local worst close each
        read -r worst close each < <(awk 'NR == FNR { y[NR] = $1; u[NR] = $2; v[NR] = $3; n = NR; next }
            { if ($1 != "mixed") { bad = 1 }; best = 999
              for (i = 1; i <= n; i++) { d = 0; dy = $2 - y[i]; du = $3 - u[i]; dv = $4 - v[i]
                  if (dy < 0) dy = -dy; if (du < 0) du = -du; if (dv < 0) dv = -dv
                  d = dy; if (du > d) d = du; if (dv > d) d = dv; if (d < best) best = d }
              if (best > worst) worst = best; if (best <= 10) near++
              each = each sprintf("%s%.0f%s@%s", sep, best, $5 == "late" ? "(late)" : "", $6); sep = "," }
            END { if (bad) print -1, 0, each; else printf "%.0f %d %s\n", worst, near, each }' "$VCAM_DIR/theirs-$size.txt" "$VCAM_DIR/ours-$size.txt")
        info "$size: each frame's distance to the nearest stream frame, with the loopback's sequence number: $each"
        info "$size: mean Y'CbCr of the last 10 frames: foldcamd ${mean#* } (${mean%% *} not mixed); $close of them within 10 of the nearest of ffmpeg's $(wc -l < "$VCAM_DIR/theirs-$size.txt") frames of the stream, the farthest $worst away"
        vcam_logged 'an MJPG frame had damaged data' && info "$size: foldcamd decoded a damaged frame: $(grep -m1 'an MJPG frame had damaged data' "$VCAM_LOG")"
        [ -n "$worst" ] && ((worst >= 0 && worst <= 10)) \
            || problems+=("$size: the virtual camera's frames are not ffmpeg's decoding of the stream (within 10 of the nearest stream frame: $close of 10, farthest $worst; -1: a frame not mixed)")
    else
        problems+=("$size: ffmpeg could not decode $stream: $(tail -n 2 "$VCAM_DIR/ffmpeg-$size.err" | tr '\n' ' ')")
    fi
    untag
}

run_size 1920 1080
run_size 1280 720

if ((${#problems[@]})); then
    fail "$name" "$(IFS=';'; echo "${problems[*]}")"
    tail -n 60 "$VCAM_LOG" >&2
else
    pass "$name"
fi
