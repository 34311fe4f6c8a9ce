# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 1000
# The zero-copy default under readers that come and go (issue 28, item 8), for
# FOLDCAM_E2E_SOAK_SECONDS (default 600; CI runs the default): a keep-up reader of the loopback for
# the whole soak, and beside it one churning reader after another (open, read for 2 to 8 s, some
# slowly with LOOP_READER_DELAY_MS, some stopped with SIGSTOP for a second and continued, then
# closed) while the hinge folds every 5 s and a kiosk pins the outer display every 30 s.
# Asserted:
#   - no reader error other than the module's own (below), and every reader ends normally;
#   - no refilled frame: every frame a churning reader got has the bytes (loop-reader's HASH) the
#     keep-up reader saw for the same buffer timestamp (the producer's streaming writes carry no
#     sequence number: v4l2loopback 0.12.7 numbers only write(2)s; a page handed back to its camera
#     while a reader could still read it shows up as another hash, or a torn, mixed frame). Only
#     frames read within the zero-copy rule's promise are compared: hashing ended within 0.75
#     output interval of the frame's write (below); later reads (a reader stopped with SIGSTOP,
#     or one frame behind near the end of the linger) are counted, not compared;
#   - foldcamd's descriptors back to their count at the start (same readers, same state) and its
#     VmRSS within 2 MiB of it.
# Reported (INFO): frames read, zero-copy stream starts, readers run, RSS and descriptors.
# v4l2loopback 0.12.7's own behaviour, counted and named rather than failed: a reader's
# VIDIOC_DQBUF can fail with EINVAL when another opener's VIDIOC_REQBUFS re-initialises the
# buffers (init_buffers() clears V4L2_BUF_FLAG_MAPPED on every buffer, every opener's included).
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=zero-copy-soak
seconds=${FOLDCAM_E2E_SOAK_SECONDS:-600}
problems=()
churn=
trap 'churn_stop; vcam_cleanup' EXIT
info() { echo "INFO $name: $*"; }

churn_stop() {
    [ -n "$churn" ] || return 0
    kill -CONT "$churn" 2> /dev/null
    kill "$churn" 2> /dev/null
    wait "$churn" 2> /dev/null
    churn=
}
# resources: foldcamd's VmRSS (KiB) and open descriptors.
resources() {
    echo "$(awk '/^VmRSS:/ { print $2 }' /proc/"$VCAM_PID"/status) $(find /proc/"$VCAM_PID"/fd -mindepth 1 -maxdepth 1 | wc -l)"
}

vcam_begin "$name" soak || exit 0
# A warm-up round of everything the soak does (a fold and back, a pin and its release, a second
# reader), so the baseline holds what the daemon keeps for good (sessions, frames, arenas).
set_angle 0
wait_colour "$reader" green 60 || problems+=("warm-up: the fold did not show outer-front")
"$E2E_TOOLS/loop-reader" "$E2E_LOOPBACK" "$VCAM_DIR/warm-up.log" 3 || problems+=("warm-up: the second reader failed")
pin_hold outer
pin_release
set_angle 180
wait_colour "$reader" red 60 || problems+=("warm-up: the unfold did not show inner-front")
frames_after "$reader" 50 60 || problems+=("the keep-up reader got fewer than 50 frames in 60 s at the start")
read -r rss0 fds0 <<< "$(resources)"
info "start (after a warm-up round): foldcamd VmRSS ${rss0} KiB, ${fds0} descriptors (keep-up reader streaming)"

started=$SECONDS
runs=0
next_fold=$((SECONDS + 5))
next_pin=$((SECONDS + 30))
angle=180
pinned=0
while ((SECONDS - started < seconds)); do
    if [ -z "$churn" ]; then
        runs=$((runs + 1))
        delay=0
        ((runs % 3 != 0)) || delay=$((40 + RANDOM % 120))
        LOOP_READER_DELAY_MS=$delay "$E2E_TOOLS/loop-reader" "$E2E_LOOPBACK" "$VCAM_DIR/churn-$runs.log" $((2 + RANDOM % 7)) &
        churn=$!
        if ((runs % 4 == 0)); then
            sleep 1
            kill -STOP "$churn" 2> /dev/null
            sleep 1
            kill -CONT "$churn" 2> /dev/null
        fi
    elif ! kill -0 "$churn" 2> /dev/null; then
        wait "$churn" || problems+=("churning reader $runs exited $?")
        churn=
    fi
    if ((SECONDS >= next_fold)); then
        angle=$((180 - angle))
        set_angle "$angle"
        next_fold=$((SECONDS + 5))
    fi
    if ((SECONDS >= next_pin)); then
        if ((pinned)); then pin_release; pinned=0; else pin_hold outer; pinned=1; fi
        next_pin=$((SECONDS + 30))
    fi
    sleep 0.2
done
churn_stop
pin_release
set_angle 180
# The same state as at the start: unfolded, unpinned, the keep-up reader alone.
wait_colour "$reader" red 60 || problems+=("after the soak the keep-up reader shows '$(last_colours "$reader" 5)', not red")
frames_after "$reader" 50 60 || problems+=("the keep-up reader got fewer than 50 frames in 60 s at the end")
read -r rss1 fds1 <<< "$(resources)"
info "end: foldcamd VmRSS ${rss1} KiB, ${fds1} descriptors; ${runs} churning readers over $((SECONDS - started)) s"
((fds1 == fds0)) || problems+=("foldcamd holds ${fds1} descriptors after the soak, ${fds0} before: $(ls -l /proc/"$VCAM_PID"/fd | tail -n +2 | awk '{ print $NF }' | sort | uniq -c | sort -rn | head -n 5 | tr '\n' ' ')")
((rss1 - rss0 <= 2048)) || problems+=("foldcamd's VmRSS grew from ${rss0} to ${rss1} KiB over the soak")
reader_stop

# Every churning frame against the keep-up reader's frame of the same buffer timestamp, where the
# zero-copy rule promises it: a page goes back to its camera at least three quarters of an output
# interval after a newer frame went out (docs/virtual-camera.md, "Readers behind the newest
# frame"), and the newer frame went out after this one's timestamp W (v4l2loopback stamps a
# write when it is queued). So a frame whose hashing ended (DONE, the same clock) within 0.75
# interval of W cannot have been refilled; one read later than that (a reader one frame behind,
# dequeuing near the end of the linger) may be, and is counted but not compared.
# The output runs at the rig's cameras' shared rate, 25 fps (rigs/duo-vivid.json): 0.75 interval is 30 ms.
# shellcheck disable=SC2046 # the logs are words
verdict=$(awk -v promise=0.030 '
    function done_at(   i) { for (i = NF; i > 9; i--) if ($i ~ /^done=/) return substr($i, 6) + 0; return -1 }
    function promised() { d = done_at(); return $12 != "late" && d >= 0 && d - $9 < promise }
    FNR == 1 { churning = FILENAME != keep }
    $1 == "frame" && !churning && promised() { hash[$9] = $11 }
    $1 == "frame" && churning { read++; if (!promised()) past++; else if ($9 in hash) { compared++; if (hash[$9] != $11) refilled++ } }
    $1 == "error" && churning { if ($0 ~ /VIDIOC_DQBUF: Invalid argument/) module++; else errors++ }
    $1 == "error" && !churning { if ($0 ~ /VIDIOC_DQBUF: Invalid argument/) module++; else errors++ }
    END { printf "%d %d %d %d %d %d", read, compared, refilled, errors, module, past }' keep="$reader" "$reader" $(ls "$VCAM_DIR"/churn-*.log))
read -r read compared refilled errors module past <<< "$verdict"
keep_frames=$(grep -c '^frame ' "$reader")
starts=$(grep -c "frames reach the loopback with no copy" "$VCAM_LOG" || true)
info "frames: keep-up reader ${keep_frames}, churning readers ${read} (${compared} compared with the keep-up reader's by buffer timestamp; ${past} read after the linger's promise, not compared): ${refilled} refilled or torn"
info "reader errors: ${errors}; VIDIOC_DQBUF EINVAL after another opener's VIDIOC_REQBUFS (v4l2loopback 0.12.7): ${module}; zero-copy stream starts: ${starts}"
((compared > 0)) || problems+=("no churning frame could be compared with the keep-up reader's")
((refilled == 0)) || problems+=("${refilled} of ${compared} churning frames differ from the keep-up reader's frame of the same buffer timestamp (a page refilled while a reader could read it)")
((errors == 0)) || problems+=("${errors} reader errors: $(grep -h '^error' "$reader" "$VCAM_DIR"/churn-*.log | grep -v 'VIDIOC_DQBUF: Invalid argument' | sort | uniq -c | head -n 3 | tr '\n' ' ')")
vcam_report "$name"
