#!/usr/bin/env bash
# Build the Debian base image locally, without any container registry: debootstrap a minimal Debian into a
# temporary folder and `docker import` it. The result is what docker.base_image names by default.
#
#   sudo environment/bootstrap_base.sh [IMAGE] [SUITE] [MIRROR]
#   defaults: mlebench-debian:bookworm  bookworm  http://deb.debian.org/debian
#
# Needs root (debootstrap), debootstrap, a reachable Debian mirror and a running Docker engine. Does nothing
# when IMAGE already exists (FORCE=1 rebuilds it). Takes about 30-40 s on a 2-core machine.
set -euo pipefail
image="${1:-mlebench-debian:bookworm}"
suite="${2:-bookworm}"
mirror="${3:-http://deb.debian.org/debian}"

if [ -z "${FORCE:-}" ] && docker image inspect "$image" >/dev/null 2>&1; then
  echo "bootstrap_base: $image already exists (FORCE=1 to rebuild)"
  exit 0
fi
command -v debootstrap >/dev/null || { echo "bootstrap_base: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 1; }
if [ "$(id -u)" != 0 ]; then  # debootstrap needs root: re-run under passwordless sudo when there is one
  sudo -n true 2>/dev/null || { echo "bootstrap_base: debootstrap needs root; run with sudo" >&2; exit 1; }
  exec sudo -n -E "$0" "$image" "$suite" "$mirror"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
debootstrap --variant=minbase "$suite" "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
  || { tail -n 30 "$work/debootstrap.log" >&2; echo "bootstrap_base: debootstrap failed" >&2; exit 1; }
# Security and point-release updates, like the official images; apt lists and caches are dropped (images
# built FROM this one run `apt-get update` themselves).
cat >"$work/rootfs/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb ${mirror%/debian}/debian-security $suite-security main
SOURCES
rm -rf "$work/rootfs/var/lib/apt/lists/"* "$work/rootfs/var/cache/apt/archives/"*.deb
tar -C "$work/rootfs" --numeric-owner -c . \
  | docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
                  --change 'CMD ["bash"]' \
                  --message "debootstrap --variant=minbase $suite $mirror" - "$image" >/dev/null
echo "bootstrap_base: built $image ($(docker image inspect --format '{{.Id}}' "$image"))"
