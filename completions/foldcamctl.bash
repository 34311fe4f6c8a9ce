# bash completion for foldcamctl(1). Display, camera and hinge ids come from the running daemon
# (one quick request, at most 3 s; a daemon that is not running fails at once); rig ids come
# from foldcamctl itself.
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)): compgen prints one word per line and the
# words (ids, options) hold no spaces or glob characters; the idiom bash-completion itself uses.

_foldcamctl_query() {
    # _foldcamctl_query WHAT [--socket PATH]: prints ids, one per line; nothing if no daemon.
    local what=$1
    shift
    case $what in
    displays)
        timeout 3 foldcamctl "$@" status 2>/dev/null |
            awk '/^DISPLAY /{t=1; next} t && NF == 0 {exit} t {print $1}' ;;
    cameras)
        timeout 3 foldcamctl "$@" devices 2>/dev/null | awk 'NR > 1 && NF {print $1}' ;;
    hinges)
        timeout 3 foldcamctl "$@" status 2>/dev/null |
            awk '$1 == "hinges" && $2 != "none" {for (i = 2; i <= NF; i += 2) {id = $i; sub(/,$/, "", id); print id}}' ;;
    rigs)
        foldcamctl rig list 2>/dev/null ;;
    esac
}

_foldcamctl() {
    local cur prev words cword
    _init_completion || return

    local i command="" sub="" socket=() args=()
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
        --socket) socket=(--socket "${words[i + 1]}"); ((i++)) ;;
        --json | --no-wait | --dry-run | --force) ;;
        --compositor | --output | --model) ((i++)) ;;
        *)
            if [[ -z $command ]]; then command=${words[i]}
            elif [[ -z $sub ]]; then sub=${words[i]}; args+=("${words[i]}")
            else args+=("${words[i]}"); fi ;;
        esac
    done

    case $prev in
    --socket) _filedir; return ;;
    -o) [[ $command == rig ]] && _filedir svg; return ;;
    esac

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--socket --json --help --version' -- "$cur"))
        else
            COMPREPLY=($(compgen -W 'status devices directions watch follow metrics pin unpin rotation snapshot sim rig report calibrate' -- "$cur"))
        fi
        return
    fi

    case $command in
    directions)
        if [[ $prev == --display ]]; then
            COMPREPLY=($(compgen -W "$(_foldcamctl_query displays "${socket[@]}")" -- "$cur"))
        else
            COMPREPLY=($(compgen -W '--display --output' -- "$cur"))
        fi ;;
    watch)
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--no-wait' -- "$cur"))
        else
            COMPREPLY=($(compgen -W 'directions posture devices virtualCamera readiness screens' -- "$cur"))
        fi ;;
    follow)
        if [[ $prev == --compositor ]]; then
            COMPREPLY=($(compgen -W 'sway wlroots kde gnome hyprland' -- "$cur"))
        elif [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--compositor --output --dry-run' -- "$cur"))
        fi ;;
    pin)
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--persist' -- "$cur"))
        elif [[ -z $sub || $sub == --persist ]]; then
            COMPREPLY=($(compgen -W "$(_foldcamctl_query displays "${socket[@]}")" -- "$cur"))
        fi ;;
    rotation)
        if [[ -z $sub ]]; then
            COMPREPLY=($(compgen -W "$(_foldcamctl_query displays "${socket[@]}")" -- "$cur"))
        elif ((${#args[@]} == 1)); then
            COMPREPLY=($(compgen -W '0 90 180 270' -- "$cur"))
        fi ;;
    report)
        if [[ $prev == -o ]]; then _filedir txt; else COMPREPLY=($(compgen -W '-o' -- "$cur")); fi ;;
    calibrate)
        case $prev in
        --model) COMPREPLY=($(compgen -W 'auto' -- "$cur")); _filedir json ;;
        --output) _filedir -d ;;
        *) COMPREPLY=($(compgen -W '--model --dry-run --force --output' -- "$cur")) ;;
        esac ;;
    snapshot)
        if [[ $prev == --at || $prev == --camera ]]; then return; fi
        if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W '--at --camera' -- "$cur")); else _filedir png; fi ;;
    sim)
        if [[ -z $sub ]]; then
            COMPREPLY=($(compgen -W 'hinge switch gravity accelerometer unplug plug busy sweep' -- "$cur"))
            return
        fi
        case $sub in
        hinge)
            ((${#args[@]} == 1)) && COMPREPLY=($(compgen -W "$(_foldcamctl_query hinges "${socket[@]}")" -- "$cur")) ;;
        switch)
            case ${#args[@]} in
            1) COMPREPLY=($(compgen -W 'lid tabletMode' -- "$cur")) ;;
            2) [[ ${args[1]} == lid ]] && COMPREPLY=($(compgen -W 'closed open' -- "$cur"))
               [[ ${args[1]} == tabletMode ]] && COMPREPLY=($(compgen -W 'on off' -- "$cur")) ;;
            esac ;;
        plug | unplug)
            ((${#args[@]} == 1)) && COMPREPLY=($(compgen -W "$(_foldcamctl_query cameras "${socket[@]}")" -- "$cur")) ;;
        busy)
            case ${#args[@]} in
            1) COMPREPLY=($(compgen -W "$(_foldcamctl_query cameras "${socket[@]}")" -- "$cur")) ;;
            2) COMPREPLY=($(compgen -W 'on off' -- "$cur")) ;;
            esac ;;
        sweep)
            ((${#args[@]} == 1)) && COMPREPLY=($(compgen -W 'on off' -- "$cur")) ;;
        esac ;;
    rig)
        if [[ -z $sub ]]; then
            COMPREPLY=($(compgen -W 'render show list' -- "$cur"))
            return
        fi
        case $sub in
        show)
            ((${#args[@]} == 1)) && COMPREPLY=($(compgen -W "$(_foldcamctl_query rigs)" -- "$cur")) ;;
        render)
            if ((${#args[@]} == 1)); then
                COMPREPLY=($(compgen -W "$(_foldcamctl_query rigs)" -- "$cur"))
                _filedir json
            elif [[ $prev != --hinge ]]; then
                COMPREPLY=($(compgen -W '--hinge -o' -- "$cur"))
            fi ;;
        esac ;;
    esac
}
complete -F _foldcamctl foldcamctl
