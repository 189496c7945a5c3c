// The completion scripts `mc --autocompletion` installs. Each asks the mc
// being completed (the command word as typed, so `./mc` and a renamed copy
// answer for themselves) with `mc __complete WORD... CURRENT` and shows the
// lines it prints; nothing of mc's command tree is copied into the scripts,
// so they stay right when mc gains commands.

export type Shell = "bash" | "zsh" | "fish";

const header = (shell: Shell): string => `# mc completion for ${shell}, written by \`mc --autocompletion\`; running it again rewrites this file.`;

const bash = `${header("bash")}
_mc_completion() {
  local IFS=$'\\n' mc="\${COMP_WORDS[0]/#\\~/$HOME}"
  COMPREPLY=($(command "$mc" __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  # A folder, a bucket or an alias goes on with its next part: no space after the slash.
  if [[ \${#COMPREPLY[@]} -eq 1 && \${COMPREPLY[0]} == */ ]]; then compopt -o nospace 2>/dev/null; fi
  return 0
}
complete -o default -o filenames -F _mc_completion mc
`;

const zsh = `${header("zsh")}
_mc_completion() {
  local -a candidates folders others
  local mc=\${~words[1]} c
  candidates=("\${(@f)$(command $mc __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  for c in $candidates; do
    [[ -z $c ]] && continue
    if [[ $c == */ ]]; then folders+=("$c"); else others+=("$c"); fi
  done
  (( \${#others} )) && compadd -- "\${others[@]}"
  (( \${#folders} )) && compadd -S '' -- "\${folders[@]}"
  (( \${#others} + \${#folders} )) || _files
}
if (( ! $+functions[compdef] )); then
  autoload -Uz compinit && compinit -i
fi
compdef _mc_completion mc
`;

const fish = `${header("fish")}
function __mc_completion
    set -l words (commandline -opc)
    set -l mc $words[1]
    set -e words[1]
    command $mc __complete $words (commandline -ct) 2>/dev/null
end
complete -c mc -f -a '(__mc_completion)'
`;

export const shellScripts: Readonly<Record<Shell, string>> = { bash, zsh, fish };
