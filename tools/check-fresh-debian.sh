#!/usr/bin/env bash
# Does the README's set-up work on a fresh machine? Bootstraps a minimal Debian 12 (bookworm) root
# with debootstrap (nothing but apt, git and CA certificates), clones this repository into it,
# and runs inside a chroot exactly what the README tells a new user to run:
#     apt-get install -y make
#     make demo
#     make test
# with CMAKE_ARGS=-DCUZK_CUDA=OFF (no nvcc in the root). Prints the time of every step and a
# last line `fresh-debian: OK in N s` (exit 0) or `fresh-debian: FAILED at STEP` (exit 1).
# On demand (not in CI: ~15-25 min on 2 cores, most of it downloading packages and building).
#
# Usage (as root):  tools/check-fresh-debian.sh [--keep] [--commit REV] [DIR]
#   DIR        where to build the root (default: a new /tmp/cuzk-fresh-XXXXXX); removed at the end
#              unless --keep
#   --commit   what to clone (default HEAD; uncommitted changes are NOT tested)
#   env MIRROR the Debian mirror (default: the first deb.debian.org-style URI in /etc/apt)
# Needs: debootstrap (installed with apt-get when missing), network access to the mirror (and to
# the npm registry for the pinned snarkjs of `make test`).
set -euo pipefail
SRC="$(cd "$(dirname "$0")/.." && pwd)"
KEEP=0; REV=HEAD; DIR=""
while [ $# -gt 0 ]; do
    case $1 in
        --keep) KEEP=1 ;;
        --commit) REV=$2; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        -*) echo "check-fresh-debian: unknown option '$1'" >&2; exit 2 ;;
        *) DIR=$1 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "check-fresh-debian: run as root (debootstrap and chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
if [ -z "${MIRROR:-}" ]; then
    MIRROR=$(grep -hoE '(URIs:|^deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
             /etc/apt/sources.list.d/*.list 2>/dev/null | grep -v security | head -1 | awk '{print $2}' || true)
    MIRROR=${MIRROR:-http://deb.debian.org/debian}
fi
[ -n "$DIR" ] || DIR=$(mktemp -d /tmp/cuzk-fresh-XXXXXX)
if [ -e "$DIR" ] && [ -n "$(ls -A "$DIR" 2>/dev/null)" ]; then
    echo "check-fresh-debian: $DIR is not empty (a root left by --keep? remove it first)" >&2; exit 2
fi
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
COMMIT=$(git -C "$SRC" rev-parse --short "$REV")

MOUNTS=()
cleanup() {
    local i
    for ((i=${#MOUNTS[@]}-1; i>=0; i--)); do
        umount "${MOUNTS[$i]}" 2>/dev/null || umount -l "${MOUNTS[$i]}" 2>/dev/null || true
    done
    if [ "$KEEP" = 0 ]; then
        # never follow a mount that is still there into the host
        if ! grep -q " $DIR/" /proc/mounts; then rm -rf --one-file-system "$DIR"; else echo "check-fresh-debian: $DIR still has mounts, not removed" >&2; fi
    else
        echo "check-fresh-debian: root kept in $DIR"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

STEPS=()
T_ALL=$(date +%s)
step() {  # step NAME COMMAND...: run, log, time
    local name=$1 t0 rc; shift
    t0=$(date +%s)
    echo "== $name"
    set +e
    "$@" >"$DIR.$name.log" 2>&1
    rc=$?
    set -e
    STEPS+=("$(printf '%-22s %5d s  rc %d' "$name" $(( $(date +%s) - t0 )) $rc)")
    if [ $rc != 0 ]; then
        tail -n 40 "$DIR.$name.log"
        printf '%s\n' "${STEPS[@]}"
        echo "fresh-debian: FAILED at $name (log: $DIR.$name.log)"
        exit 1
    fi
}
in_root() { chroot "$DIR" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
                   LANG=C.UTF-8 TERM=dumb $EXTRA_ENV /bin/bash -c "$1"; }

echo "check-fresh-debian: commit $COMMIT, root $DIR, mirror $MIRROR"
step debootstrap debootstrap --variant=minbase --include=git,ca-certificates bookworm "$DIR" "$MIRROR"
echo "deb $MIRROR bookworm main" >"$DIR/etc/apt/sources.list"
cp /etc/resolv.conf "$DIR/etc/resolv.conf"
for m in proc sys dev dev/pts; do
    mkdir -p "$DIR/$m"
    case $m in
        proc) mount -t proc proc "$DIR/proc" ;;
        sys) mount -t sysfs sys "$DIR/sys" ;;
        dev) mount --bind /dev "$DIR/dev" ;;
        dev/pts) mount --bind /dev/pts "$DIR/dev/pts" ;;
    esac
    MOUNTS+=("$DIR/$m")
done
# A site whose traffic goes through a TLS-inspecting proxy trusts its CA in
# /usr/local/share/ca-certificates: the root trusts the same (npm fetches the pinned snarkjs).
# This is the host's network set-up, not a step of the README.
EXTRA_ENV=""
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    mkdir -p "$DIR/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$DIR/usr/local/share/ca-certificates/"
    chroot "$DIR" update-ca-certificates >/dev/null 2>&1 || true
    EXTRA_ENV="NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt"
fi
mkdir -p "$DIR/root"
step clone git clone -q --no-hardlinks "$SRC" "$DIR/root/cuzk"
git -C "$DIR/root/cuzk" checkout -q "$(git -C "$SRC" rev-parse "$REV")"
# The README's commands, verbatim, as a new user runs them
step apt-make in_root 'apt-get update -qq && apt-get install -y make'
step make-demo in_root 'cd /root/cuzk && make demo CMAKE_ARGS=-DCUZK_CUDA=OFF'
step make-test in_root 'cd /root/cuzk && make test CMAKE_ARGS=-DCUZK_CUDA=OFF'
tail -n 25 "$DIR.make-test.log"
echo
printf '%s\n' "${STEPS[@]}"
echo "fresh-debian: OK in $(( $(date +%s) - T_ALL )) s (commit $COMMIT, Debian $(cat "$DIR/etc/debian_version"))"
