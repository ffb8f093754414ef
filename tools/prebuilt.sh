#!/usr/bin/env bash
# Device binaries built here, run on the GPU machine: saves the device session's build minutes.
#
#   tools/prebuilt.sh pack   [BUILD]   (here, no GPU needed) configure BUILD (default build-h200)
#                                      for sm_90a, build cuzk, cuzk-bench, cuzk_tests and libcuzk.so,
#                                      strip them and pack them into .prebuilt/h200.tar.xz with the
#                                      commit they were built from (.prebuilt/COMMIT)
#   tools/prebuilt.sh pack-daemon [BUILD]  (after pack, here) cuzkd of BUILD, the shared libraries it
#                                      loads beyond glibc/libstdc++ (gRPC, protobuf-c, microhttpd,
#                                      toml++, ...: the GPU machine has none of them) and the Go
#                                      client of tests/daemon (static) into .prebuilt/daemon.tar.xz
#   tools/prebuilt.sh merge-daemon     (after pack-daemon) fold daemon.tar.xz into h200.tar.xz: one xz
#                                      stream stores the CUDA kernels of libcuzk.so and cuzkd once
#                                      (~35 MB instead of ~59 MB: a daemon call's carry fits 64 MiB)
#   source tools/prebuilt.sh unpack    (on the GPU machine, in the checkout's root) unpack into
#                                      /opt/cuzk-prebuilt, unpack .deps/*.deb (jansson, GMP) into
#                                      /opt/cuzk-deps, export LD_LIBRARY_PATH, PATH and
#                                      PREBUILT=/opt/cuzk-prebuilt for tools/test-gpu.sh and the bench
#                                      scripts; warns when HEAD is not the packed commit
#
# The device call carries .prebuilt and .deps (`carry: [".prebuilt", ".deps"]`, both git-ignored).
# Why one archive with xz -9e: the CUDA kernels are in libcuzk.so and again in the statically
# linked cuzk_tests and cuzk-bench (which links the static bench kit and core, not libcuzk.so); a
# 64 MiB dictionary stores them once (66 MB of binaries -> ~28 MB before cuzk-bench was static),
# under the device's 64 MiB working-tree limit. The sm_90a build of src/cuda takes ~10 minutes on 2 cores.
set -u

prebuilt_pack() {
    local build=${1:-build-h200} root
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    cd "$root" || return 2
    local conf
    conf=$(cmake -S . -B "$build" -DCUZK_CUDA_ARCHS=90a -DCMAKE_CUDA_ARCHITECTURES=90a -DCMAKE_BUILD_TYPE=Release 2>&1) ||
        { echo "$conf" >&2; return 1; }
    echo "$conf" | grep -q 'cuzk: CUDA backend ON' ||
        { echo "prebuilt.sh: no CUDA backend in $build (nvcc not found?): nothing to pack" >&2; return 1; }
    cmake --build "$build" -j"$(nproc)" --target cuzk cuzk-bench cuzk_tests || return 1
    local stage
    stage=$(mktemp -d) || return 1
    strip -o "$stage/cuzk_tests" "$build/cuzk_tests" && strip -o "$stage/libcuzk.so.0.1.0" "$build/libcuzk.so.0.1.0" &&
        strip -o "$stage/cuzk-bench" "$build/cuzk-bench" && cp "$build/cuzk" "$stage/" || { rm -rf "$stage"; return 1; }
    ln -s libcuzk.so.0.1.0 "$stage/libcuzk.so.0"
    ln -s libcuzk.so.0 "$stage/libcuzk.so"
    mkdir -p .prebuilt
    (cd "$stage" && tar -c .) | xz -9e -T"$(nproc)" >.prebuilt/h200.tar.xz.tmp && mv .prebuilt/h200.tar.xz.tmp .prebuilt/h200.tar.xz
    local rc=$?
    rm -rf "$stage"
    [ $rc = 0 ] || return 1
    git rev-parse HEAD >.prebuilt/COMMIT
    git status --porcelain --untracked-files=no | grep -q . && echo "dirty" >>.prebuilt/COMMIT
    echo "packed .prebuilt/h200.tar.xz ($(du -h .prebuilt/h200.tar.xz | cut -f1)) from $(head -c 12 .prebuilt/COMMIT)"
}

prebuilt_pack_daemon() {
    local build=${1:-build-h200} root
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    cd "$root" || return 2
    cmake --build "$build" -j"$(nproc)" --target cuzkd || return 1
    local stage
    stage=$(mktemp -d) || return 1
    mkdir -p "$stage/lib"
    strip -o "$stage/cuzkd" "$build/cuzkd" || { rm -rf "$stage"; return 1; }
    # every library cuzkd loads except the C/C++ runtime the GPU machine has (cuzk runs there)
    ldd "$build/cuzkd" | awk '/=> \//{print $3}' |
        grep -v -E '/(libc|libm|libpthread|libdl|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
        while read -r f; do cp -L "$f" "$stage/lib/"; done
    CGO_ENABLED=0 bash tests/daemon/build-go-client.sh "$stage/tmp" "$stage/cuzkd-client" >/dev/null || { rm -rf "$stage"; return 1; }
    rm -rf "$stage/tmp"
    mkdir -p .prebuilt
    (cd "$stage" && tar -c .) | xz -9e -T"$(nproc)" >.prebuilt/daemon.tar.xz.tmp && mv .prebuilt/daemon.tar.xz.tmp .prebuilt/daemon.tar.xz
    local rc=$?
    rm -rf "$stage"
    [ $rc = 0 ] && echo "packed .prebuilt/daemon.tar.xz ($(du -h .prebuilt/daemon.tar.xz | cut -f1)): cuzkd, its libraries, cuzkd-client"
    return $rc
}

prebuilt_merge_daemon() {
    # one xz stream for both archives: cuzkd links the CUDA kernels statically, as libcuzk.so has
    # them, so one 64 MiB dictionary stores them once (two archives: ~59 MB; one: ~35 MB)
    local root stage
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    cd "$root" || return 2
    [ -f .prebuilt/h200.tar.xz ] && [ -f .prebuilt/daemon.tar.xz ] ||
        { echo "prebuilt.sh: merge-daemon needs .prebuilt/h200.tar.xz and .prebuilt/daemon.tar.xz (pack, pack-daemon)" >&2; return 1; }
    stage=$(mktemp -d) || return 1
    mkdir -p "$stage/daemon"
    tar -xJf .prebuilt/h200.tar.xz -C "$stage" && tar -xJf .prebuilt/daemon.tar.xz -C "$stage/daemon" &&
        (cd "$stage" && tar -c .) | xz -9e -T"$(nproc)" >.prebuilt/h200.tar.xz.tmp &&
        mv .prebuilt/h200.tar.xz.tmp .prebuilt/h200.tar.xz && rm .prebuilt/daemon.tar.xz
    local rc=$?
    rm -rf "$stage"
    [ $rc = 0 ] && echo "merged: .prebuilt/h200.tar.xz ($(du -h .prebuilt/h200.tar.xz | cut -f1)) holds cuzkd and its libraries too"
    return $rc
}

prebuilt_unpack() {
    [ -f .prebuilt/h200.tar.xz ] || { echo "prebuilt.sh: no .prebuilt/h200.tar.xz (carry .prebuilt)" >&2; return 1; }
    mkdir -p /opt/cuzk-prebuilt /opt/cuzk-deps
    if command -v xz >/dev/null 2>&1; then
        tar -xJf .prebuilt/h200.tar.xz -C /opt/cuzk-prebuilt || return 1
    else # python3's lzma where the xz program is missing
        python3 -c 'import lzma,sys,tarfile; tarfile.open(fileobj=lzma.open(sys.argv[1])).extractall(sys.argv[2])' \
            .prebuilt/h200.tar.xz /opt/cuzk-prebuilt || return 1
    fi
    local f daemon_lib=
    if [ -f .prebuilt/daemon.tar.xz ]; then # cuzkd and its libraries (pack-daemon)
        mkdir -p /opt/cuzk-prebuilt/daemon
        tar -xJf .prebuilt/daemon.tar.xz -C /opt/cuzk-prebuilt/daemon || return 1
    fi
    if [ -x /opt/cuzk-prebuilt/daemon/cuzkd ]; then # from daemon.tar.xz or folded into h200.tar.xz (merge-daemon)
        ln -sf daemon/cuzkd daemon/cuzkd-client /opt/cuzk-prebuilt/
        daemon_lib=:/opt/cuzk-prebuilt/daemon/lib
    fi
    for f in .deps/*.deb; do [ -f "$f" ] && dpkg -x "$f" /opt/cuzk-deps; done
    export LD_LIBRARY_PATH=/opt/cuzk-prebuilt:/opt/cuzk-deps/usr/lib/x86_64-linux-gnu$daemon_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export PATH=/opt/cuzk-prebuilt:$PATH PREBUILT=/opt/cuzk-prebuilt CUZK_FIXTURES_DIR=$PWD/tests/fixtures
    local want
    want=$(head -1 .prebuilt/COMMIT 2>/dev/null)
    if [ -n "$want" ] && [ "$want" != "$(git rev-parse HEAD 2>/dev/null)" ]; then
        echo "prebuilt.sh: WARNING: the binaries are from ${want:0:12}, the tree is at $(git rev-parse --short HEAD 2>/dev/null)"
    fi
    /opt/cuzk-prebuilt/cuzk --version
}

case "${1:-}" in
    pack) shift; prebuilt_pack "$@" ;;
    pack-daemon) shift; prebuilt_pack_daemon "$@" ;;
    merge-daemon) prebuilt_merge_daemon ;;
    unpack) prebuilt_unpack ;;
    *) sed -n '2,/^set -u/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
       [ "${1:-}" = -h ] || [ "${1:-}" = --help ] ;;
esac
