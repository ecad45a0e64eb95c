#!/usr/bin/env bash
# The certificate on the GPU against the host's, on a CUDA machine with the
# binaries of `scripts/gpu-suite.sh build` (`.gpu/sssp`). For each Kronecker scale (kron 24 and
# 25 by default: SCALES="24 25"), generated once with `sssp gen` into OUT, TRIALS seeded sources
# solved by near-far on the GPU and certified twice: on the device (`--verify`, the default) and
# on the host's threads (`--verify --host-certificate`). Each report line ends with
# `verified (certificate on the device|host in X ms)`; the summary prints the medians.
# Usage: scripts/gpu-cert.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-cert-out}
mkdir -p "$out"
bin=${SSSP:-.gpu/sssp}
for sc in ${SCALES:-24 25}; do
  g=$out/kron$sc.bin
  [ -f "$g" ] || "$bin" gen "kron:$sc" -o "$g" --seed 1
  for on in device host; do
    flag=()
    [ "$on" = host ] && flag=(--host-certificate)
    echo "== kron $sc, certificate on the $on"
    timeout 580 "$bin" run "$g" --device gpu --algo near-far --trials "${TRIALS:-5}" --seed 7 --verify "${flag[@]}" \
      | tee "$out/kron$sc-$on.txt"
  done
done
echo "== medians (ms): scale, device, host"
for sc in ${SCALES:-24 25}; do
  med() { grep -o "certificate on the $1 in [0-9.]*" "$out/kron$sc-$1.txt" | awk '{print $NF}' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
  echo "kron $sc: device $(med device) host $(med host)"
done
