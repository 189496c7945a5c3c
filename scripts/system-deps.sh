#!/usr/bin/env bash
# Installs the Debian packages the test suite runs against (real peers, not
# mocks) when any is missing. Used by .ci/run and by `npm test` (pretest), so
# a fresh Debian machine needs no other step. Needs root or passwordless sudo;
# otherwise it prints the one command to run.
set -euo pipefail

# command -> Debian package
declare -A wanted=(
  [nats-server]=nats-server
  [minisign]=minisign
  [chromium]=chromium
  [softhsm2-util]=softhsm2
  [prometheus]=prometheus
  [ceph-mon]=ceph-mon
  [ceph-osd]=ceph-osd
  [radosgw]=radosgw
  [ceph]=ceph-common
  [rclone]=rclone
  # The mc single executable's end-to-end test downloads it as a user would; its build strips node's debug symbols.
  [curl]=curl
  [strip]=binutils
  [s3cmd]=s3cmd
  [/usr/bin/aws]=awscli
  # The reference for mc's MinIO admin commands (tests/minio-admin/driver, GOPATH build).
  [go]=golang-go
  [/usr/share/gocode/src/github.com/minio/madmin-go/encrypt.go]=golang-github-minio-madmin-go-dev
  [/usr/share/gocode/src/github.com/minio/minio-go/v7/api.go]=golang-github-minio-minio-go-v7-dev
  # mc --autocompletion writes completion for bash, zsh and fish; tests/mc/completion runs it under tmux and parses the others.
  [tmux]=tmux
  [zsh]=zsh
  [fish]=fish
  # mc admin trace / scanner status / support top rpc --in read saved records compressed with zstd.
  [zstd]=zstd
  # GNU time reports a publish's peak memory (tests/releases/publish-memory).
  [/usr/bin/time]=time
  # Runs mc as another user (tests/mc/local-fs: unreadable folders) and under a file-size limit (a full disk: mc, tests/kms/disk-full).
  [setpriv]=util-linux
  [prlimit]=util-linux
)

# `system-deps.sh bench`: also the peers the benchmarks compare against.
if [[ ${1:-} == bench ]]; then
  wanted[wrk]=wrk
  wanted[nginx]=nginx-light
  wanted[hyperfine]=hyperfine
  wanted[etcd]=etcd-server
  wanted[etcdctl]=etcd-client
  # bench/profile/gateway.ts attributes the gateway's CPU per request with perf (kernel and V8 included).
  wanted[perf]=linux-perf
fi

missing=()
for cmd in "${!wanted[@]}"; do
  # A path is checked as a file (packages of sources have no command).
  if [[ $cmd == /* ]]; then [[ -e $cmd ]] || missing+=("${wanted[$cmd]}"); continue; fi
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${wanted[$cmd]}")
done
((${#missing[@]} == 0)) && exit 0

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "The tests need these Debian packages: ${missing[*]}" >&2
  echo "Install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi

echo "installing Debian packages for the tests: ${missing[*]}" >&2
"${sudo[@]}" apt-get update -q >&2
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
