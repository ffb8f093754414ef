#!/usr/bin/env bash
# Builds the Go client of cuzkd (tests/daemon/client.go, over Debian's grpc-go and protoc-gen-go,
# GOPATH mode, no module download) into OUT; used by tests/daemon/run.sh and by
# tools/prebuilt.sh pack-daemon (CGO off there: a static binary for the GPU machine).
#   tests/daemon/build-go-client.sh WORKDIR OUT      env: GOCACHE (default WORKDIR/go-cache), CGO_ENABLED
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
G=$1/go
OUT=$2
mkdir -p "$G/src/cuzk.test/cuzkpb" "$G/src/cuzk.test/client"
protoc --proto_path="$ROOT/src/daemon" --go_out="$G/src/cuzk.test/cuzkpb" --go_opt=paths=source_relative \
    --go_opt=Mproving.proto=cuzk.test/cuzkpb proving.proto
cp "$HERE/client.go" "$G/src/cuzk.test/client/"
export GOCACHE="${GOCACHE:-$1/go-cache}"
cd "$G/src/cuzk.test/client"
GO111MODULE=off GOPATH="$G:/usr/share/gocode" GOFLAGS= go build -o "$OUT" .
