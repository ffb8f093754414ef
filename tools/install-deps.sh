#!/usr/bin/env bash
# Install what cuzk needs on a fresh Debian machine (run as root, or with sudo available).
#   tools/install-deps.sh          build deps: C compiler, cmake, make, jansson (JSON), OpenSSL (SHA-256);
#                                  for the daemon (cuzkd): C++ compiler, gRPC C++, protobuf-c,
#                                  libmicrohttpd, toml++
#   tools/install-deps.sh --test   also the test oracles: GMP, Node.js/npm, the pinned snarkjs and
#                                  gRPC-js (npm), Go with Debian's grpc-go and protoc-gen-go (daemon tests)
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
need_dev libssl-dev      # OpenSSL's SHA-256 (Filecoin challenge derivation)
# cuzkd (src/daemon): gRPC C++ callback API, protobuf-c messages, HTTP /metrics, TOML config
need_cmd c++ g++
need_cmd pkg-config pkg-config
need_dev libgrpc++-dev
need_dev libprotobuf-c-dev
need_cmd protoc-c protobuf-c-compiler
need_cmd protoc protobuf-compiler
need_dev libmicrohttpd-dev
need_dev libtomlplusplus-dev
if [ "$want_test" = 1 ]; then
    need_dev libgmp-dev
    need_cmd node nodejs
    need_cmd npm npm
    # cuzkd tests: the Go client (Debian's grpc-go, GOPATH mode) and its generated messages
    need_cmd go golang-go
    need_dev golang-google-grpc-dev
    need_dev golang-google-protobuf-dev
    need_cmd protoc-gen-go protoc-gen-go
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
    if [ ! -f tests/js/node_modules/snarkjs/build/cli.cjs ] || [ ! -d tests/js/node_modules/@grpc/grpc-js ] ||
       [ ! -d tests/js/node_modules/@grpc/proto-loader ]; then
        echo "install-deps: npm ci (tests/js: snarkjs, @grpc/grpc-js, @grpc/proto-loader, pinned)"
        (cd tests/js && npm ci --no-audit --no-fund --loglevel=error)
    fi
fi
