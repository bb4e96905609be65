#!/usr/bin/env bash
# Make a Docker engine answer on this machine (CI, or a fresh Debian/Ubuntu box): install Debian's docker.io
# and debootstrap when missing, start dockerd when nothing answers, and wait until it does. Needs root or
# passwordless sudo. Exits non-zero, loudly, when no engine comes up within STARTUP_SECS (default 60).
# Where Debian's runsc (gVisor) is installed, the engine it starts offers it (below).
#
#   environment/start_engine.sh                 # start the engine (a no-op when one answers)
#   environment/start_engine.sh --print-config  # print the daemon configuration it would start dockerd with
set -euo pipefail
# gVisor: where runsc is installed (apt-get install runsc), dockerd gets two runtimes (docker.runtime: runsc;
# docs/runners-and-isolation.md#gvisor), written into a daemon configuration of its own (DOCKERD_CONFIG,
# default /run/mlebench/dockerd.json: /etc/docker/daemon.json's settings, when there is one, plus these), which
# dockerd is started with (--config-file):
#   runsc          gVisor's own network stack (runsc's default) where it runs here; where it does not (runsc
#                  releases before 2023 take every network namespace for the host's on kernels that give each
#                  namespace its own net.core.rmem_default, 6.x), --network=none: containers without a network
#                  (the agent under network `none`, the grader) then still run on gVisor's own loopback.
#   runsc-hostnet  --network=host: gVisor's kernel, whose sockets are the host kernel's *in the container's own
#                  network namespace*: the one a proxied agent (`egress`, `llm`) needs, since the firewall that
#                  holds it to its proxy is that namespace's, which gVisor's own stack would not pass through.
# Both with --oci-seccomp: gVisor's kernel applies the container's seccomp profile (Docker's default refusals,
# no user namespace within) to the agent's calls, as the host kernel does under runc.
runsc_bin="$(command -v runsc || true)"
gvisor_args() {  # runsc's arguments for the runtime `runsc`: [] where its own network stack runs, else none
  if (cd / && timeout 60 "$runsc_bin" --network=sandbox do true) >/dev/null 2>&1; then
    echo '["--oci-seccomp"]'
  else
    echo '["--oci-seccomp", "--network=none"]'
  fi
}
daemon_config() {  # /etc/docker/daemon.json (or DOCKERD_BASE_CONFIG) plus the runsc runtimes; $1: runsc's args
  RUNSC="$runsc_bin" RUNSC_ARGS="$1" BASE="${DOCKERD_BASE_CONFIG:-/etc/docker/daemon.json}" \
    python3 -c '
import json, os, pathlib
base = pathlib.Path(os.environ["BASE"])
config = json.loads(base.read_text()) if base.is_file() and base.read_text().strip() else {}
runtimes = config.setdefault("runtimes", {})
runtimes["runsc"] = {"path": os.environ["RUNSC"], "runtimeArgs": json.loads(os.environ["RUNSC_ARGS"])}
runtimes["runsc-hostnet"] = {"path": os.environ["RUNSC"], "runtimeArgs": ["--oci-seccomp", "--network=host"]}
print(json.dumps(config, indent=2, sort_keys=True))'
}
if [ "${1:-}" = "--print-config" ]; then
  [ -n "$runsc_bin" ] || { echo "start_engine: runsc is not installed (apt-get install runsc)" >&2; exit 1; }
  daemon_config "$(gvisor_args)"
  exit 0
fi

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

if docker info >/dev/null 2>&1; then
  echo "start_engine: a Docker engine already answers"
  if [ -n "$runsc_bin" ] && ! docker info --format '{{json .Runtimes}}' | grep -q '"runsc-hostnet"'; then
    echo "start_engine: runsc is installed but this engine lacks its runtimes; to offer gVisor, stop dockerd" \
      "and run this script again (it starts dockerd with them: see $0 --print-config)" >&2
  fi
  exit 0
fi
config=()
if [ -n "$runsc_bin" ]; then
  config_file="${DOCKERD_CONFIG:-/run/mlebench/dockerd.json}"
  runsc_args="$(gvisor_args)"
  daemon_config "$runsc_args" | $sudo sh -c "mkdir -p '$(dirname "$config_file")' && cat >'$config_file'"
  echo "start_engine: gVisor: runtimes runsc (arguments $runsc_args) and runsc-hostnet, in $config_file"
  config=(--config-file "$config_file")
fi
log="${DOCKERD_LOG:-/tmp/dockerd.log}"
echo "start_engine: starting dockerd (log: $log)"
# --group: the socket belongs to the caller's group, so a non-root caller can use it without re-login.
$sudo sh -c "nohup dockerd --group $(id -g) ${config[*]} >'$log' 2>&1 &"
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
