# shellcheck shell=bash source=../lib.sh
# Whether the guest's drivers allow forwarding with no copy (issue 14 item 5): tools/zero-copy-probe
# maps v4l2loopback 0.12.7's output buffers (MMAP streaming on the output side) and makes vivid
# capture straight into them (USERPTR), then forwards the same camera the way foldcamd does now
# (its own buffers, write() to the loopback). A reader of the loopback must see inner-front's red
# while the zero-copy way runs. Reports each way's CPU time per frame (this process: user +
# system); asserts that both ways ran or that a refusal names the call (the answer either way).
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"
. "$E2E_HERE/tools/daemon.sh"

name=zero-copy-probe
probe_pid=
cleanup() {
    [ -z "$probe_pid" ] || { kill "$probe_pid" 2> /dev/null; wait "$probe_pid" 2> /dev/null; }
    reader_stop
    loopback_reset
}
trap cleanup EXIT
problems=()
camera=$(camera_node inner-front)
loopback_reset
out=$VCAM_DIR/zero-copy.out
: > "$out"
"$E2E_TOOLS/zero-copy-probe" "$camera" "$E2E_LOOPBACK" 250 > "$out" 2>&1 &
probe_pid=$!
if wait_until 60 grep -q '^zerocopy \(streaming\|refused\)' "$out"; then
    if grep -q '^zerocopy streaming' "$out"; then
        reader=$VCAM_DIR/zero-copy.reader
        if wait_until 30 reader_start "$reader" && frames_after "$reader" 25 60; then
            red=$(grep -c '^frame .* red ' "$reader")
            echo "INFO $name: while the camera captured into the loopback's buffers the reader got $(grep -c '^frame ' "$reader") frames, $red of them red: $(last_colours "$reader" 5)"
            ((red > 0)) || problems+=("the reader saw no red frame from the zero-copy way ($(last_colours "$reader" 5))")
        else
            problems+=("no reader frames while the zero-copy way ran ($(tr '\n' ' ' < "$reader" 2> /dev/null))")
        fi
        reader_stop
    fi
else
    problems+=("zero-copy-probe said nothing within 60 s: $(tr '\n' ' ' < "$out")")
fi
wait_until 120 grep -q '^copy ' "$out" || problems+=("the copy way did not finish within 120 s")
wait "$probe_pid" 2> /dev/null
probe_pid=
cat "$out" >&2
while read -r way result rest; do
    case $way in zerocopy | copy) ;; *) continue ;; esac
    [ "$result" != streaming ] || continue
    if [ "$result" = ok ]; then
        read -r frames per_frame <<< "$rest"
        echo "INFO $name: $way: $frames frames of 640x480 YUYV at 25 fps, ${per_frame} us of CPU per frame"
    else
        echo "INFO $name: $way: $result $rest"
    fi
done < "$out"
grep -q '^copy ok' "$out" || problems+=("the copy way failed: $(grep '^copy' "$out")")
grep -q '^zerocopy \(ok\|refused\)' "$out" || problems+=("the zero-copy way neither ran nor named a refusal")
if ((${#problems[@]})); then fail "$name" "$(IFS=';'; echo "${problems[*]}")"; else pass "$name"; fi
