mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
xz -dc .gpuexp/cur.xz > /tmp/old && chmod +x /tmp/old
cp .gpu/sssp /tmp/new
export SSSP_TEST_DEVICE=gpu
echo "-- memcheck strategies (frontier loops, hubs, multisplit, overflow)"
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 .gpu/strategies --test-threads 1 kron star_with_hub zero_weights multisplit hub_path overflowed 2>&1 | tail -4
echo "memcheck rc ${PIPESTATUS[0]}"
row() { local b=$1; shift; /tmp/$b bench "$@" --json 2>/dev/null | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$b'", x["graph"][:24], x["algo"], x["balance"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for b in old new; do
  row $b gen:kron:20 --device gpu --algos auto --trials 5
  row $b gen:kron:24 --device gpu --algos auto --trials 5
done
for b in old new; do
  row $b gen:path:4000 --device gpu --algos crauser -s 0
done
