#!/usr/bin/env bash
# Runs before `npm start` and `npm test`. First the Node version: it must fit
# package.json's `engines.node` (the ranges the dependencies declare), else one
# line and exit 1, before anything fails further in with a stranger message.
# Then, on a fresh clone, installs the npm packages from the lock, so those two
# commands are all a user needs.
set -euo pipefail
cd "$(dirname "$0")/.."

# True when dotted version $1 >= $2.
version_ge() {
  local IFS=.
  local -a a b
  read -ra a <<<"$1"
  read -ra b <<<"$2"
  for i in 0 1 2; do
    ((10#${a[i]:-0} > 10#${b[i]:-0})) && return 0
    ((10#${a[i]:-0} < 10#${b[i]:-0})) && return 1
  done
  return 0
}

# True when version $1 fits range $2: alternatives joined by `||`, each `^X.Y.Z` or `>=X.Y.Z`.
version_fits() {
  local alt base
  local -a alts
  IFS='|' read -ra alts <<<"${2//||/|}"
  for alt in "${alts[@]}"; do
    alt=${alt// /}
    case $alt in
      ^*) base=${alt#^}; version_ge "$1" "$base" && [[ ${1%%.*} == "${base%%.*}" ]] && return 0 ;;
      '>='*) version_ge "$1" "${alt#>=}" && return 0 ;;
    esac
  done
  return 1
}

have=$(node -p process.versions.node)
want=$(node -p 'require("./package.json").engines.node')
if ! version_fits "$have" "$want"; then
  echo "mc-platform needs Node $want; this is Node $have ($(command -v node)): install a Node that fits and run again" >&2
  exit 1
fi

[[ -f node_modules/.package-lock.json ]] || npm ci
