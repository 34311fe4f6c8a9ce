# shellcheck shell=bash source=../lib.sh
# The host-built daemon runs in the guest (its Swift runtime comes from the shared host root).
. "$E2E_HERE/lib.sh"

name=foldcamd-simulate
daemon=$FOLDCAM_BIN/foldcamd
if [ ! -x "$daemon" ]; then
    echo "SKIP $name: no $daemon (build the project first)"
    exit 0
fi
out=/tmp/foldcamd-simulate.out
timeout 60 "$daemon" --simulate --sweep --cycles 1 --step-ms 0 > "$out" 2> /tmp/foldcamd-simulate.err
status=$?
cat /tmp/foldcamd-simulate.err >&2
if ((status != 0)); then
    fail "$name" "foldcamd exited with status $status: $(tail -n 1 /tmp/foldcamd-simulate.err)"
elif ! grep -q 'posture closed' "$out"; then
    fail "$name" "no 'posture closed' line in $(wc -l < "$out") lines of output"
else
    pass "$name"
fi
