#!/usr/bin/env bash
# Build the Debian base image locally, without any container registry: debootstrap a minimal Debian into a
# temporary folder and `docker import` it. The result is what docker.base_image names by default.
#
#   sudo environment/bootstrap_base.sh [IMAGE] [SUITE] [MIRROR]
#   defaults: mlebench-debian:bookworm  bookworm  the mirror this machine's apt uses for SUITE
#
# The mirror (and the security mirror, for SUITE-security) is read from this machine's apt sources: the
# one-line `deb URI SUITE ...` lines of /etc/apt/sources.list and /etc/apt/sources.list.d/*.list, and the
# deb822 stanzas (Types/URIs/Suites, Enabled) of /etc/apt/sources.list.d/*.sources, the first that serves
# SUITE winning; none is an error (pass MIRROR then). APT_SOURCES_DIR (default /etc/apt) reads another tree.
#
# Needs root (debootstrap), debootstrap, a reachable Debian mirror and a running Docker engine. Does nothing
# when IMAGE already exists (FORCE=1 rebuilds it). Takes about 30-40 s on a 2-core machine.
set -euo pipefail
image="${1:-mlebench-debian:bookworm}"
suite="${2:-bookworm}"
apt_dir="${APT_SOURCES_DIR:-/etc/apt}"

# The URI of the first enabled `deb` source for suite $1 in the apt configuration under $apt_dir, or nothing.
apt_uri() {
  local want="$1" file
  for file in "$apt_dir/sources.list" "$apt_dir"/sources.list.d/*.list; do
    [ -f "$file" ] || continue
    awk -v want="$want" '
      { sub(/#.*/, ""); gsub(/\[[^]]*\]/, " ") }
      $1 == "deb" && $3 == want { print $2; exit }' "$file"
  done
  for file in "$apt_dir"/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    awk -v want="$want" '
      BEGIN { RS = ""; FS = "\n" }
      {
        types = ""; uris = ""; suites = ""; enabled = "yes"
        for (i = 1; i <= NF; i++) {
          line = $i
          if (line ~ /^[ \t]*#/ || line !~ /^[A-Za-z-]+:/) continue
          key = tolower(substr(line, 1, index(line, ":") - 1))
          value = substr(line, index(line, ":") + 1)
          if (key == "types") types = value
          else if (key == "uris") uris = value
          else if (key == "suites") suites = value
          else if (key == "enabled") enabled = tolower(value)
        }
        gsub(/[ \t]+/, " ", types); gsub(/[ \t]+/, " ", suites); gsub(/^[ \t]+/, "", uris)
        if (enabled ~ /no/ || index(" " types " ", " deb ") == 0 || index(" " suites " ", " " want " ") == 0) next
        split(uris, u, /[ \t]+/); print u[1]; exit
      }' "$file"
  done
}

if [ -z "${FORCE:-}${MIRROR_ONLY:-}" ] && docker image inspect "$image" >/dev/null 2>&1; then
  echo "bootstrap_base: $image already exists (FORCE=1 to rebuild)"
  exit 0
fi
mirror="${3:-$(apt_uri "$suite" | head -n 1)}"
if [ -z "$mirror" ]; then
  echo "bootstrap_base: no apt source for suite '$suite' in $apt_dir/sources.list or $apt_dir/sources.list.d/" \
       "(*.list, *.sources): configure one, or pass the mirror: $0 $image $suite MIRROR_URL" >&2
  exit 1
fi
security="$(apt_uri "$suite-security" | head -n 1)"
if [ -n "${MIRROR_ONLY:-}" ]; then  # MIRROR_ONLY=1: print the mirrors it would use and stop (a dry run)
  echo "mirror=$mirror"
  echo "security=$security"
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
# Security (when this machine has a source for it) and point-release updates, like the official images;
# apt lists and caches are dropped (images built FROM this one run `apt-get update` themselves).
{
  echo "deb $mirror $suite main"
  echo "deb $mirror $suite-updates main"
  if [ -n "$security" ]; then echo "deb $security $suite-security main"; fi
} >"$work/rootfs/etc/apt/sources.list"
rm -rf "$work/rootfs/var/lib/apt/lists/"* "$work/rootfs/var/cache/apt/archives/"*.deb
tar -C "$work/rootfs" --numeric-owner -c . \
  | docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
                  --change 'CMD ["bash"]' \
                  --message "debootstrap --variant=minbase $suite $mirror" - "$image" >/dev/null
echo "bootstrap_base: built $image ($(docker image inspect --format '{{.Id}}' "$image"))"
