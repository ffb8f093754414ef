#!/usr/bin/env bash
# Install what cuzk needs on a fresh Debian machine (run as root, or with sudo available).
#   tools/install-deps.sh          build deps: C compiler, cmake, make, jansson (JSON)
#   tools/install-deps.sh --test   also the test oracles: GMP, Node.js/npm and the pinned snarkjs,
#                                  and pkg-config/nm for the install and symbol tests
# Installs only what is missing; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

pkgs=()
need_cmd() { command -v "$1" >/dev/null 2>&1 || pkgs+=("$2"); }
need_dev() { dpkg -s "$1" >/dev/null 2>&1 || pkgs+=("$1"); }

need_cmd cc gcc
need_cmd make make
need_cmd cmake cmake
need_dev libjansson-dev
if [ "$want_test" = 1 ]; then
    need_dev libgmp-dev
    need_cmd node nodejs
    need_cmd npm npm
    need_cmd pkg-config pkgconf   # ctest install: a program built with pkg-config --libs cuzk
    need_cmd nm binutils          # ctest symbols: nm -D of libcuzk.so
fi

if [ "${#pkgs[@]}" -gt 0 ]; then
    echo "install-deps: installing ${pkgs[*]}"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
fi

if [ "$want_test" = 1 ]; then
    # snarkjs pinned by tests/js/package-lock.json: the independent verifier for our proofs.
    if [ ! -f tests/js/node_modules/snarkjs/build/cli.cjs ]; then
        echo "install-deps: npm ci (tests/js: snarkjs, pinned)"
        (cd tests/js && npm ci --no-audit --no-fund --loglevel=error)
    fi
fi
