# bash completion for revsum. The commands, each command's options and the values an option
# accepts ({a,b,c} in its --help) are read from the binary's own --help, so completion never
# offers what the binary does not have. Installed as share/bash-completion/completions/revsum.
_revsum() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local bin=${COMP_WORDS[0]} cmd="" w i
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    case $w in -*) ;; *) cmd=$w; break ;; esac
  done
  local IFS=$'\n'
  if [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W "$("$bin" --help 2>/dev/null |
      awk '/^Subcommands:/ { on = 1; next } on && NF { print $1 }')
--help
--version" -- "$cur"))
    return
  fi
  local help
  help=$("$bin" "$cmd" --help 2>/dev/null) || return
  if [[ $prev == -* ]]; then
    # An option with a set of values: offer them; one that takes a value: offer files.
    local line
    line=$(grep -E -- "(^|[ ,])${prev}( |=|$)" <<<"$help" | head -1)
    if [[ $line =~ \{([^}]*)\} ]]; then
      COMPREPLY=($(compgen -W "$(tr ',' '\n' <<<"${BASH_REMATCH[1]}")" -- "$cur"))
      return
    fi
    if [[ $line =~ ${prev}[[:space:]]+[A-Z] ]]; then
      COMPREPLY=($(compgen -f -- "$cur"))
      return
    fi
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(grep -oE -- '(^|[ ,])--?[A-Za-z][-A-Za-z0-9]*' <<<"$help" |
      tr -d ' ,' | sort -u)" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _revsum revsum
