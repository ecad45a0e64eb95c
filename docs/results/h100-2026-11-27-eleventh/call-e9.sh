mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
xz -dc .gpuexp/s11.xz > /tmp/s11 && chmod +x /tmp/s11
cp .gpu/sssp /tmp/new
NY=.gpu/USA-road-d.NY.gr.gz
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2 3; do for cfg in s11 new; do for k in 16 17 18; do row $cfg /tmp/$cfg gen:kron:$k --device gpu --algos auto --trials 5; done; done; done
for rep in 1 2; do for cfg in s11 new; do for g in gen:kron:20 gen:kron:22 $NY gen:road:1000000; do row $cfg /tmp/$cfg $g --device gpu --algos auto --trials 5; done; done; done
for cfg in s11 new; do for g in gen:kron:24 gen:road:4000000 gen:grid3d:256x256x256; do row $cfg /tmp/$cfg $g --device gpu --algos auto --trials 5; done; done
for cfg in s11 new; do row $cfg /tmp/$cfg gen:kron:16 --device gpu --algos near-far,bucketing --balance partition --dedupe stamp --deltas 16,128 --trials 5; row $cfg /tmp/$cfg gen:grid2d:1000x1000 --device gpu --algos workfront --balance partition --dedupe stamp --trials 3; row $cfg /tmp/$cfg gen:kron:18 --device gpu --algos crauser,martin --trials 3; done
tail -2 /tmp/err
SANITIZE=0 SUITE_LOG=$OUT/suite.log SUITE_LIMIT=200 bash scripts/gpu-suite.sh run > /dev/null 2>&1 && echo SUITE PASSED || echo SUITE FAILED
grep "test result" $OUT/suite.log | sort | uniq -c
