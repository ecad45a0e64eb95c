set -e
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
xz -dc .gpuexp/cnt.xz > /tmp/cnt && chmod +x /tmp/cnt
xz -dc .gpuexp/n15.xz > /tmp/n15 && chmod +x /tmp/n15
cp .gpu/sssp /tmp/fin
NY=.gpu/USA-road-d.NY.gr.gz
nvidia-smi --query-gpu=name --format=csv,noheader
row() { local tag=$1; local b=$2; shift; shift; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2 3; do
 for b in cnt n15 fin; do
  row $b /tmp/$b $NY --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:road:1000000 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:kron:16 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:kron:17 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:kron:18 --device gpu --algos auto --trials 5
 done
done
for b in cnt n15 fin; do
  row $b /tmp/$b gen:road:4000000 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:grid3d:256x256x256 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:grid2d:1000x1000 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:kron:20 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:kron:22 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:kron:24 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:path:4000 --device gpu --algos workfront,bucketing,near-far --balance vwarp --dedupe stamp -s 0
  row $b /tmp/$b gen:path:4000 --device gpu --algos workfront,near-far --balance partition --dedupe stamp -s 0
done
tail -2 /tmp/err
SANITIZE=0 SUITE_LOG=$OUT/suite.log SUITE_LIMIT=200 bash scripts/gpu-suite.sh run > /dev/null 2>&1 && echo SUITE PASSED || echo SUITE FAILED
grep "test result" $OUT/suite.log | sort | uniq -c
