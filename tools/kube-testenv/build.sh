#!/usr/bin/env bash
# Builds etcd, etcdctl, kube-apiserver, kubectl and the kube-testenv launcher into $KUBE_TESTENV_BIN
# (default .cache/kube-testenv/bin at the repository root). Skips the build entirely when the Go
# sources, go.mod, go.sum and the Go version match the last successful build.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${KUBE_TESTENV_BIN:-$root/.cache/kube-testenv/bin}"
cd "$here"

stamp="$( { go version; cat go.mod go.sum; find cmd -name '*.go' -print0 | sort -z | xargs -0 cat; } | sha256sum | cut -c1-64)"
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] &&
  [ -x "$out/kube-apiserver" ] && [ -x "$out/etcd" ] && [ -x "$out/etcdctl" ] && [ -x "$out/kubectl" ] &&
  [ -x "$out/kube-testenv" ]; then
  exit 0
fi

echo "[kube-testenv] building etcd, etcdctl, kube-apiserver, kubectl and kube-testenv into $out (first build takes about 10 minutes on 2 cores)" >&2
start=$(date +%s)
mkdir -p "$out"
rm -f "$out/.stamp"
go build -ldflags='-s -w' -o "$out/" \
  k8s.io/kubernetes/cmd/kube-apiserver \
  k8s.io/kubernetes/cmd/kubectl \
  ./cmd/etcd \
  ./cmd/etcdctl \
  ./cmd/kube-testenv
echo "$stamp" > "$out/.stamp"
echo "[kube-testenv] built in $(( $(date +%s) - start ))s" >&2
