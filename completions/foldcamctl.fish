# fish completion for foldcamctl(1). Display, camera and hinge ids come from the running daemon
# (one quick request, at most 3 s; a daemon that is not running fails at once); rig ids come
# from foldcamctl itself.

function __foldcamctl_ids --argument-names what
    set -l socket
    set -l tokens (commandline -opc)
    for i in (seq (count $tokens))
        if test "$tokens[$i]" = --socket; and test $i -lt (count $tokens)
            set socket --socket $tokens[(math $i + 1)]
        end
    end
    switch $what
        case displays
            timeout 3 foldcamctl $socket status 2>/dev/null | awk '/^DISPLAY /{t=1; next} t && NF == 0 {exit} t {print $1}'
        case cameras
            timeout 3 foldcamctl $socket devices 2>/dev/null | awk 'NR > 1 && NF {print $1}'
        case hinges
            timeout 3 foldcamctl $socket status 2>/dev/null | awk '$1 == "hinges" && $2 != "none" {for (i = 2; i <= NF; i += 2) {id = $i; sub(/,$/, "", id); print id}}'
        case rigs
            foldcamctl rig list 2>/dev/null
    end
end

# The words after the command, without options: "sim hinge" gives sim, hinge.
function __foldcamctl_args
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l skip 0
    for token in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        switch $token
            case --socket --display --output --at --camera --hinge -o --model
                set skip 1
            case '-*'
            case '*'
                echo $token
        end
    end
end

function __foldcamctl_at --description 'the words after options are exactly the arguments'
    set -l args (__foldcamctl_args)
    test "$args" = "$argv"
end

complete -c foldcamctl -f
complete -c foldcamctl -n "__fish_use_subcommand" -l socket -r -F -d "the daemon's socket"
complete -c foldcamctl -n "__fish_use_subcommand" -l json -d 'print JSON instead of tables'
complete -c foldcamctl -n "__fish_use_subcommand" -l help -d 'print usage'
complete -c foldcamctl -n "__fish_use_subcommand" -l version -d 'print the version'
complete -c foldcamctl -n "__foldcamctl_at" -a status -d 'rig, posture, hinges, directions'
complete -c foldcamctl -n "__foldcamctl_at" -a devices -d 'the cameras the daemon knows'
complete -c foldcamctl -n "__foldcamctl_at" -a directions -d "which cameras face each display's viewer"
complete -c foldcamctl -n "__foldcamctl_at" -a watch -d 'one line per change, live'
complete -c foldcamctl -n "__foldcamctl_at" -a follow -d 'apply the screens advice through the compositor'
complete -c foldcamctl -n "__foldcamctl_at" -a metrics -d "the daemon's metrics (Prometheus text)"
complete -c foldcamctl -n "__foldcamctl_at" -a report -d "write what a device model needs as one text file"
complete -c foldcamctl -n "__foldcamctl_at" -a calibrate -d "fold through closed, 90°, flat and tent and write the model's sensor corrections"
complete -c foldcamctl -n "__foldcamctl_at" -a pin -d 'pin the viewed display'
complete -c foldcamctl -n "__foldcamctl_at" -a unpin -d 'undo pin'
complete -c foldcamctl -n "__foldcamctl_at" -a rotation -d "a display's UI rotation"
complete -c foldcamctl -n "__foldcamctl_at" -a snapshot -d "the virtual camera's frame as PNG"
complete -c foldcamctl -n "__foldcamctl_at" -a sim -d 'move a simulated daemon'
complete -c foldcamctl -n "__foldcamctl_at" -a rig -d 'draw, show or list rigs'

complete -c foldcamctl -n "__fish_seen_subcommand_from directions" -l display -x -a '(__foldcamctl_ids displays)' -d 'one display only'
complete -c foldcamctl -n "__fish_seen_subcommand_from directions" -l output -x -d 'the display on one DRM output'
complete -c foldcamctl -n "__fish_seen_subcommand_from watch" -a 'directions posture devices virtualCamera readiness screens'
complete -c foldcamctl -n "__fish_seen_subcommand_from watch" -l no-wait -d 'fail at once when the daemon is not running'
complete -c foldcamctl -n "__fish_seen_subcommand_from follow" -l compositor -x -a 'sway wlroots kde gnome hyprland' -d 'the compositor to drive'
complete -c foldcamctl -n "__fish_seen_subcommand_from follow" -l output -x -d 'display D is output OUTPUT (D=OUTPUT)'
complete -c foldcamctl -n "__fish_seen_subcommand_from follow" -l dry-run -d 'print the commands without running them'
complete -c foldcamctl -n "__fish_seen_subcommand_from calibrate" -l model -r -F -d 'the model file to calibrate, or auto'
complete -c foldcamctl -n "__fish_seen_subcommand_from calibrate" -l dry-run -d 'print the corrected model without writing it'
complete -c foldcamctl -n "__fish_seen_subcommand_from calibrate" -l force -d 'replace a model file already there'
complete -c foldcamctl -n "__fish_seen_subcommand_from calibrate" -l output -x -a '(__fish_complete_directories)' -d 'the directory to write the model to'
complete -c foldcamctl -n "__foldcamctl_at pin" -a '(__foldcamctl_ids displays)'
complete -c foldcamctl -n "__foldcamctl_at pin" -l persist -d 'keep the pin after foldcamctl exits and across restarts'
complete -c foldcamctl -n "__foldcamctl_at rotation" -a '(__foldcamctl_ids displays)'
complete -c foldcamctl -n "__fish_seen_subcommand_from rotation; and test (count (__foldcamctl_args)) -eq 2" -a '0 90 180 270'
complete -c foldcamctl -n "__fish_seen_subcommand_from snapshot" -l at -x -d 'CLOCK_MONOTONIC time in ns'
complete -c foldcamctl -n "__fish_seen_subcommand_from snapshot" -l camera -x -d 'virtual camera id'
complete -c foldcamctl -n "__fish_seen_subcommand_from snapshot" -F

complete -c foldcamctl -n "__foldcamctl_at sim" -a 'hinge switch gravity accelerometer unplug plug busy sweep'
complete -c foldcamctl -n "__foldcamctl_at sim hinge" -a '(__foldcamctl_ids hinges)'
complete -c foldcamctl -n "__foldcamctl_at sim switch" -a 'lid tabletMode'
complete -c foldcamctl -n "__foldcamctl_at sim switch lid" -a 'closed open'
complete -c foldcamctl -n "__foldcamctl_at sim switch tabletMode" -a 'on off'
complete -c foldcamctl -n "__foldcamctl_at sim plug; or __foldcamctl_at sim unplug; or __foldcamctl_at sim busy" -a '(__foldcamctl_ids cameras)'
complete -c foldcamctl -n "__fish_seen_subcommand_from busy; and test (count (__foldcamctl_args)) -eq 3" -a 'on off'
complete -c foldcamctl -n "__foldcamctl_at sim sweep" -a 'on off'

complete -c foldcamctl -n "__foldcamctl_at rig" -a 'render show list'
complete -c foldcamctl -n "__foldcamctl_at rig show" -a '(__foldcamctl_ids rigs)'
complete -c foldcamctl -n "__foldcamctl_at rig render" -a '(__foldcamctl_ids rigs)' -F
complete -c foldcamctl -n "__fish_seen_subcommand_from render; and test (count (__foldcamctl_args)) -ge 3" -l hinge -x -d 'a hinge angle ID=DEG'
complete -c foldcamctl -n "__fish_seen_subcommand_from render; and test (count (__foldcamctl_args)) -ge 3" -s o -r -F -d 'output SVG, or -'
