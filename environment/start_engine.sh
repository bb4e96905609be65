#!/usr/bin/env bash
# Make a Docker engine answer on this machine (CI, or a fresh Debian/Ubuntu box): install Debian's docker.io
# and debootstrap when missing, start dockerd when nothing answers, and wait until it does. Needs root or
# passwordless sudo. Exits non-zero, loudly, when no engine comes up within STARTUP_SECS (default 60).
#
#   environment/start_engine.sh
set -euo pipefail
sudo=""
if [ "$(id -u)" != 0 ]; then
  sudo -n true 2>/dev/null || { echo "start_engine: needs root or passwordless sudo" >&2; exit 1; }
  sudo="sudo -n"
fi

missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ "${#missing[@]}" -gt 0 ]; then
  echo "start_engine: installing ${missing[*]}"
  $sudo apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# gVisor: where Debian's runsc is installed (apt-get install runsc), the engine offers it as the runtime
# `runsc` (docker.runtime: runsc, an agent under a user-space kernel; docs/runners-and-isolation.md).
runtimes=()
runsc_bin="$(command -v runsc || true)"
[ -n "$runsc_bin" ] && runtimes=(--add-runtime "runsc=$runsc_bin")

if docker info >/dev/null 2>&1; then
  echo "start_engine: a Docker engine already answers"
  if [ -n "$runsc_bin" ] && ! docker info --format '{{json .Runtimes}}' | grep -q '"runsc"'; then
    echo "start_engine: runsc is installed but this engine lacks it; to offer gVisor, restart dockerd with" \
      "--add-runtime runsc=$runsc_bin (or add it under \"runtimes\" in /etc/docker/daemon.json)" >&2
  fi
  exit 0
fi
log="${DOCKERD_LOG:-/tmp/dockerd.log}"
echo "start_engine: starting dockerd (log: $log)"
# --group: the socket belongs to the caller's group, so a non-root caller can use it without re-login.
$sudo sh -c "nohup dockerd --group $(id -g) ${runtimes[*]} >'$log' 2>&1 &"
for _ in $(seq 1 "${STARTUP_SECS:-60}"); do
  if docker info >/dev/null 2>&1; then
    echo "start_engine: engine $(docker version --format '{{.Server.Version}}') is up"
    exit 0
  fi
  sleep 1
done
echo "start_engine: dockerd did not answer within ${STARTUP_SECS:-60} s; last lines of $log:" >&2
tail -n 30 "$log" >&2 || true
exit 1
