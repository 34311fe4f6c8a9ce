# zsh -f Tests/package/zsh-complete.zsh "foldcamctl pin "
# Prints, one per line, the matches zsh's completion system offers for the line given (the line
# ends where the cursor is), using the completion functions installed in
# /usr/share/zsh/vendor-completions. It drives an interactive zsh on a pseudo-terminal (zpty),
# binds a completion widget to ^T, and wraps compadd so that every match is printed. Used by
# scripts/check-package; set TMPDIR for compinit's dump file.
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z 'PROMPT= RPROMPT= ; fpath=(/usr/share/zsh/vendor-completions $fpath); autoload -Uz compinit; compinit -u -d $TMPDIR/zcompdump'
# compadd wrapper: print every match instead of inserting it.
zpty -w z 'compadd () { local -a __hits; builtin compadd -A __hits "$@"; local h; for h in $__hits; do print -r -- "<<$h>>"; done; }'
zpty -w z 'zle -C __capture complete-word _main_complete; bindkey "^T" __capture'
zpty -w z 'print -r -- __READ''Y__'
while zpty -r z line; do [[ $line == *__READY__* ]] && break; done
# The widget runs before the next line is read, so every match is printed before __DONE__.
zpty -w -n z "$1"$'\x14\x15'
zpty -w z 'print -r -- __DO''NE__'
while zpty -r z line; do
  [[ $line == *__DONE__* ]] && break
  [[ $line == *'<<'*'>>'* ]] && { line=${line#*<<}; print -r -- ${line%%>>*}; }
done
zpty -d z
