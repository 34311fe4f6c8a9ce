# bash completion for foldcamd(8): its modes and options. --rig offers the built-in rigs (from
# foldcamd --list-rigs) and .json files; --config and --script files; --loopback video nodes.
# shellcheck disable=SC2207 # COMPREPLY=($(compgen ...)): the words hold no spaces or globs.

_foldcamd() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    case $prev in
    --rig)
        COMPREPLY=($(compgen -W "$(foldcamd --list-rigs 2> /dev/null)" -- "$cur") $(compgen -f -X '!*.json' -- "$cur"))
        return ;;
    --config | --script | --socket)
        COMPREPLY=($(compgen -f -- "$cur"))
        return ;;
    --loopback)
        COMPREPLY=($(compgen -f -- "${cur:-/dev/video}"))
        return ;;
    --cycles | --step-ms)
        return ;;
    esac
    COMPREPLY=($(compgen -W 'scenario --simulate --probe --check-config --list-rigs --version --help --config --rig --socket --loopback --quiet --sweep --cycles --step-ms --json --strict --script' -- "$cur"))
}
complete -F _foldcamd foldcamd
