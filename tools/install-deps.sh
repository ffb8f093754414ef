#!/usr/bin/env bash
# Install what cuzk needs on a fresh Debian 12 / Ubuntu LTS machine (as root, or with sudo).
#   tools/install-deps.sh          build: C and C++ compilers, libc headers, make, cmake, pkg-config,
#                                  git and CA certificates (the commit `cuzk version` reports; https
#                                  for git and npm), jansson (JSON), OpenSSL (SHA-256); for the daemon
#                                  (cuzkd): gRPC C++, protobuf-c, libmicrohttpd, toml++
#   tools/install-deps.sh --test   also the test oracles: GMP, Node.js/npm, the pinned snarkjs and
#                                  gRPC-js (npm), Go with Debian's grpc-go and protoc-gen-go (daemon tests)
#   tools/install-deps.sh --fuzz   also clang with libFuzzer (make fuzz)
# Every package is checked with dpkg-query (a binary on the PATH is not enough: `cc` can be there
# without libc6-dev), and whatever is missing is installed in one apt-get step. Safe to run again.
#
# To add a dependency, add a line to one of the lists below:
#   "package"          needed as a Debian package
#   "package:command"  also satisfied by `command` on the PATH (a tool installed outside apt,
#                      e.g. Node.js from NodeSource, whose nodejs package bundles npm)
set -euo pipefail
cd "$(dirname "$0")/.."

DEPS_BUILD=(
    gcc            # C11 compiler
    g++            # project(cuzk C CXX) needs a C++ compiler
    libc6-dev      # crt1.o, libc headers: dropped by --no-install-recommends
    make
    cmake
    pkg-config
    git:git        # the build records its commit: cuzk version, cuzkd --version, benchmark headers
    ca-certificates # https: git clone/fetch and npm ci (tests/js) on a minimal system
    libjansson-dev # JSON (snarkjs files)
    libssl-dev     # OpenSSL's SHA-256 (Filecoin challenge derivation)
    # cuzkd (src/daemon): gRPC C++ callback API, protobuf-c messages, HTTP /metrics, TOML config
    libgrpc++-dev
    libprotobuf-c-dev
    protobuf-c-compiler:protoc-c
    protobuf-compiler:protoc
    libmicrohttpd-dev
    libtomlplusplus-dev
)
DEPS_TEST=(
    libgmp-dev     # the independent big-integer oracle of the field tests
    nodejs:node    # runs the pinned snarkjs (tests/js)
    npm:npm
    # cuzkd tests: the Go client (Debian's grpc-go, GOPATH mode) and its generated messages
    golang-go:go
    golang-google-grpc-dev
    golang-google-protobuf-dev
    protoc-gen-go:protoc-gen-go
    pkgconf:pkg-config   # ctest install: a program built with pkg-config --libs cuzk
    binutils:nm          # ctest symbols: nm -D of libcuzk.so
)
DEPS_FUZZ=(
    clang          # libFuzzer; its runtime package is checked below
)

sets=(BUILD)
for a in "$@"; do
    case $a in
        --test) sets+=(TEST) ;;
        --fuzz) sets+=(FUZZ) ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "install-deps: unknown option '$a' (--test, --fuzz)" >&2; exit 2 ;;
    esac
done

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

missing=()
for set in "${sets[@]}"; do
    declare -n list="DEPS_$set"
    for entry in "${list[@]}"; do
        pkg=${entry%%:*}
        cmd=""
        [ "$entry" != "$pkg" ] && cmd=${entry#*:}
        installed "$pkg" && continue
        [ -n "$cmd" ] && command -v "$cmd" >/dev/null 2>&1 && continue
        missing+=("$pkg")
    done
    unset -n list
done

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
apt_install() {
    echo "install-deps: installing $*"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
[ "${#missing[@]}" -gt 0 ] && apt_install "${missing[@]}"

if [[ " ${sets[*]} " == *" FUZZ "* ]]; then
    # clang's libFuzzer runtime is only a Recommends (libclang-rt-N-dev on Debian 12 / Ubuntu 24.04).
    probe=$(mktemp -d)
    echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$probe/f.c"
    if ! clang -fsanitize=fuzzer "$probe/f.c" -o "$probe/f" >/dev/null 2>&1; then
        major=$(clang -dumpversion | cut -d. -f1)
        apt_install "libclang-rt-$major-dev"
    fi
    rm -rf "$probe"
fi

if [[ " ${sets[*]} " == *" TEST "* ]]; then
    # snarkjs pinned by tests/js/package-lock.json: the independent verifier for our proofs.
    if [ ! -f tests/js/node_modules/snarkjs/build/cli.cjs ] || [ ! -d tests/js/node_modules/@grpc/grpc-js ] ||
       [ ! -d tests/js/node_modules/@grpc/proto-loader ]; then
        echo "install-deps: npm ci (tests/js: snarkjs, @grpc/grpc-js, @grpc/proto-loader, pinned)"
        (cd tests/js && npm ci --no-audit --no-fund --loglevel=error)
    fi
fi
