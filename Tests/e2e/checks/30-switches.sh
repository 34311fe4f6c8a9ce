# shellcheck shell=bash source=../lib.sh
# SW_LID and SW_TABLET_MODE toggled through the uinput device reach a reader of its event node,
# and the kernel's switch state (EVIOCGSW) follows.
. "$E2E_HERE/lib.sh"

tool=$E2E_TOOLS/uinput-switch
# toggle NAME SWITCH VALUE: sets the switch while a reader waits for the event; prints a problem.
toggle() {
    local name=$1 switch=$2 value=$3 ready=/tmp/switch-ready.$$ waiter
    rm -f "$ready"
    "$tool" wait "$E2E_SWITCH_DEVICE" "$switch" "$value" 5000 "$ready" > /dev/null &
    waiter=$!
    for _ in $(seq 50); do [ -e "$ready" ] && break; sleep 0.1; done
    set_switch "$switch" "$value"
    if ! wait "$waiter"; then
        echo "no $switch=$value event reached the reader"
        return
    fi
    local state
    state=$("$tool" state "$E2E_SWITCH_DEVICE")
    [[ " $state " == *" $switch=$value "* ]] || echo "after $switch=$value the switch state is '$state'"
}

for entry in "switch-lid lid" "switch-tablet-mode tablet"; do
    read -r name switch <<< "$entry"
    problems=()
    if [ ! -c "${E2E_SWITCH_DEVICE:-}" ]; then
        problems+=("no uinput switch device")
    else
        for value in 1 0; do
            problem=$(toggle "$name" "$switch" "$value")
            [ -z "$problem" ] || problems+=("$problem")
        done
    fi
    if ((${#problems[@]})); then fail "$name" "$(IFS=';'; echo "${problems[*]}")"; else pass "$name"; fi
done
