# shellcheck shell=bash source=../lib.sh
# e2e-timeout: 900
# A web kiosk: headless Chromium (Debian's chromium) opens docs/kiosk.md's page, which picks the
# virtual camera by its label through enumerateDevices/getUserMedia. Across two folds, a pin and
# its release, and a SIGKILL and restart of foldcamd, the page's track never ends or mutes, and
# after each step it shows the expected camera (inner-front red, outer-front green). Chromium is
# slow under TCG (tens of seconds to its first frame): correctness and liveness are asserted; the
# time to the first frame, each step's delay until the page showed it, and the page's frame rate
# are reported.
. "$E2E_HERE/lib.sh"
. "$E2E_HERE/tools/vcam.sh"

name=chromium-virtual-camera
browser=
cleanup() {
    [ -z "$browser" ] || { kill "$browser" 2> /dev/null; wait "$browser" 2> /dev/null; }
    mkdir -p "$E2E_LOGS/vcam"
    cp "$VCAM_DIR/chromium.log" "$E2E_LOGS/vcam/" 2> /dev/null
    vcam_cleanup
}
trap cleanup EXIT
if ! command -v chromium > /dev/null; then
    fail "$name" "chromium is not installed (Tests/e2e/run installs it on the host, whose root the guest shares)"
    exit 0
fi

# The page is the one in docs/kiosk.md, its label set to this guest's loopback, plus the probe
# that reports what it shows.
page=$VCAM_DIR/kiosk.html
python3 - "$E2E_HERE/../../docs/kiosk.md" "$E2E_HERE/tools/chromium-probe.js" "$page" <<'EOF'
import re, sys
doc, probe, out = sys.argv[1:]
pages = re.findall(r"```html\n(.*?)```", open(doc).read(), re.S)
if len(pages) != 1:
    sys.exit(f"docs/kiosk.md has {len(pages)} html blocks, expected the one web kiosk page")
page = pages[0]
if 'const LABEL = "foldcam";' not in page or "</body>" not in page:
    sys.exit("docs/kiosk.md's page changed: no 'const LABEL = \"foldcam\";' or no </body>")
page = page.replace('const LABEL = "foldcam";', 'const LABEL = "foldcam virtual camera";')
open(out, "w").write(page.replace("</body>", "<script>\n" + open(probe).read() + "</script>\n</body>"))
EOF
[ -s "$page" ] || { fail "$name" "could not build the page from docs/kiosk.md"; exit 0; }

# With camera on demand the daemon may wait for a reader (idle) rather than stream (ready).
readiness_is_ready_or_idle() { case $(vcam_readiness) in ready | idle) return 0 ;; *) return 1 ;; esac; }
set_angle 180
if ! vcam_start || ! wait_until 60 readiness_is_ready_or_idle; then
    fail "$name" "foldcamd did not start (readiness '$(vcam_readiness)')"
    cat "$VCAM_LOG" >&2
    exit 0
fi

log=$VCAM_DIR/chromium.log
started=$EPOCHREALTIME
chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --disable-background-networking --disable-component-update --disable-extensions --mute-audio \
    --use-fake-ui-for-media-stream --autoplay-policy=no-user-gesture-required \
    --enable-logging=stderr --v=0 --user-data-dir="$VCAM_DIR/chromium-profile" \
    "file://$page" > /dev/null 2> "$log" &
browser=$!

# page_lines: the probe's lines ("MS what..."), without Chromium's log prefix.
page_lines() { sed -n 's/.*CONSOLE.*"e2e \([0-9]*\) \(.*\)", source: .*/\1 \2/p' "$log"; }
# page_error: the page's own error line ("foldcam: ..."), if any.
page_error() { sed -n 's/.*CONSOLE.*"\(foldcam: .*\)", source: .*/\1/p' "$log" | head -n 1; }
# shows COLOUR [SINCE_MS]: the page's latest colour line (after SINCE_MS) names COLOUR.
shows() { page_lines | awk -v s="${2:-0}" '$1 > s && $2 == "colour"' | tail -n 1 | grep -q "^[0-9]* colour $1 "; }
# first_showing COLOUR SINCE_MS: the time (ms) of the first colour line after SINCE_MS naming it.
first_showing() { page_lines | awk -v c="$1" -v s="$2" '$1 > s && $2 == "colour" && $3 == c { print $1; exit }'; }
now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }

problems=()
figures=()
if ! wait_until 300 shows red; then
    error=$(page_error)
    fail "$name" "the page showed no red frame (inner-front) within 300 s${error:+: $error}; last: $(page_lines | tail -n 2 | tr '\n' ' ')"
    grep -v 'dbus\|Fontconfig' "$log" | tail -n 20 >&2
    exit 0
fi
first=$(first_showing red 0)
figures+=("first frame $(awk -v a="$started" -v b="$first" 'BEGIN { printf "%.1f", b / 1000 - a }') s after Chromium started")
track=$(page_lines | sed -n 's/^[0-9]* track \(.*\)/\1/p' | head -n 1)
[[ $track == '"foldcam virtual camera"'* ]] || problems+=("the page opened '$track', not the foldcam virtual camera")

# step LABEL COLOUR COMMAND...: runs the command and waits (120 s) until the page shows COLOUR.
step() {
    local label=$1 colour=$2 since shown
    shift 2
    since=$(now_ms)
    "$@"
    if wait_until 120 shows "$colour" "$since"; then
        shown=$(first_showing "$colour" "$since")
        figures+=("$label: $colour after $(awk -v a="$since" -v b="$shown" 'BEGIN { printf "%.1f", (b - a) / 1000 }') s")
    else
        problems+=("after $label the page shows '$(page_lines | awk '$2 == "colour" { c = $3 } END { print c }')', not $colour")
    fi
}
restart_daemon() {
    kill -9 "$VCAM_PID"
    wait "$VCAM_PID" 2> /dev/null
    VCAM_PID=
    vcam_start || problems+=("foldcamd did not start again")
}

step fold-0 green set_angle 0
step fold-180 red set_angle 180
step pin-outer green pin_hold outer
step unpin red pin_release
step pin-outer-again green pin_hold outer
# Killed while pinned: the restarted daemon starts unpinned (the pin's connection died with it).
step sigkill-restart red restart_daemon
pin_release
step fold-0-after-restart green set_angle 0

# Liveness over the whole run: no ended or muted track, frames counted by the page kept growing.
events=$(page_lines | awk '$2 ~ /^track-/ { print $2 }' | sort | uniq -c | tr -s ' ' | tr '\n' ';')
[ -z "$events" ] || problems+=("the track fired: $events")
page_lines | awk '$2 == "colour" && $10 != "live"' | grep -q . && problems+=("the track was not live at some sample")
fps=$(page_lines | awk '$2 == "colour" { if (!t0) { t0 = $1; f0 = $8 } t = $1; f = $8 } END { if (t > t0) printf "%.1f", (f - f0) * 1000 / (t - t0) }')
figures+=("page frame rate ${fps:-?} fps over the run")
# The page never stalled: no two samples more than 10 s apart with the same frame count.
stall=$(page_lines | awk '$2 == "colour" { if (f == $8 && $1 - t > 10000) { print $1 - t; exit } if (f != $8) { f = $8; t = $1 } }')
[ -z "$stall" ] || problems+=("the page showed no new frame for ${stall} ms")

for figure in "${figures[@]}"; do echo "INFO $name: $figure"; done
if ((${#problems[@]})); then
    fail "$name" "$(IFS=';'; echo "${problems[*]}")"
    tail -n 40 "$VCAM_LOG" >&2
    grep -v 'dbus\|Fontconfig' "$log" | tail -n 20 >&2
else
    pass "$name"
fi
