mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
xz -dc .gpuexp/head.xz > /tmp/head && chmod +x /tmp/head
cp .gpu/sssp /tmp/new
NY=.gpu/USA-road-d.NY.gr.gz
row() { local tag=$1; local b=$2; local l=$3; shift 3; SSSP_LEAN_LOOP=$l $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
cfgs="head:/tmp/head:1 lean:/tmp/new:1 plain:/tmp/new:0"
for rep in 1 2; do
 for cfg in $cfgs; do IFS=: read t b l <<< "$cfg"
  row $t $b $l $NY --device gpu --algos auto --trials 5
  row $t $b $l gen:road:1000000 --device gpu --algos auto --trials 5
 done
done
for cfg in $cfgs; do IFS=: read t b l <<< "$cfg"
  row $t $b $l gen:road:4000000 --device gpu --algos auto --trials 5
  row $t $b $l gen:grid3d:256x256x256 --device gpu --algos auto --trials 5
  row $t $b $l gen:grid2d:1000x1000 --device gpu --algos auto --trials 5
  row $t $b $l gen:kron:16 --device gpu --algos auto --trials 5
  row $t $b $l gen:path:4000 --device gpu --algos workfront,bucketing,near-far --balance vwarp --dedupe stamp -s 0
done
tail -2 /tmp/err
SANITIZE=0 SUITE_LOG=$OUT/suite.log SUITE_LIMIT=200 bash scripts/gpu-suite.sh run > /dev/null 2>&1 && echo SUITE PASSED || echo SUITE FAILED
grep "test result" $OUT/suite.log | sort | uniq -c
