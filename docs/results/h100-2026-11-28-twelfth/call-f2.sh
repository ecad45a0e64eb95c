mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
for b in h0 n1; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2; do for cfg in h0 n1; do for k in 16 17 18; do row $cfg /tmp/$cfg gen:kron:$k --device gpu --algos auto --trials 5; done; done; done
for cfg in h0 n1; do row $cfg /tmp/$cfg .gpuexp/USA-road-d.NY.gr.gz --device gpu --algos auto --trials 5; row $cfg /tmp/$cfg gen:road:1000000 --device gpu --algos auto --trials 5; row $cfg /tmp/$cfg gen:kron:16 --device gpu --algos near-far,bucketing --balance partition --dedupe stamp --deltas 16 --trials 5; row $cfg /tmp/$cfg gen:kron:20 --device gpu --algos auto --trials 5; done
tail -2 /tmp/err
SANITIZE=0 SUITE_LOG=$OUT/suite.log SUITE_LIMIT=200 bash scripts/gpu-suite.sh run > /dev/null 2>&1 && echo SUITE PASSED || echo SUITE FAILED
grep "test result" $OUT/suite.log | sort | uniq -c | awk '{s+=$1} END {print s, "binaries"}'
grep -c "test result: ok" $OUT/suite.log
