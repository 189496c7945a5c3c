#!/usr/bin/env bash
# Runs before `npm start` and `npm test`: on a fresh clone, installs the npm
# packages from the lock first, so those two commands are all a user needs.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f node_modules/.package-lock.json ]] || npm ci
