set -e
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
xz -dc .gpuexp/head.xz > /tmp/head && chmod +x /tmp/head
cp .gpu/sssp /tmp/new
NY=.gpu/USA-road-d.NY.gr.gz
nvidia-smi --query-gpu=name --format=csv,noheader
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2; do
 for t in head new; do
  row $t /tmp/$t $NY --device gpu --algos auto --trials 5
  row $t /tmp/$t $NY --device gpu --algos bucketing,workfront --loops block --trials 5
  row $t /tmp/$t $NY --device gpu --algos crauser,martin --balance vwarp --trials 5
  row $t /tmp/$t gen:road:1000000 --device gpu --algos crauser --balance vwarp --trials 5
  row $t /tmp/$t gen:path:4000 --device gpu --algos workfront,bucketing --loops block --dedupe stamp -s 0
  row $t /tmp/$t gen:path:4000 --device gpu --algos workfront --balance vwarp --dedupe stamp -s 0
 done
done
/tmp/new run gen:grid2d:1000x1000 --device gpu 2>&1 | grep -i "auto\|near-far" | cut -c1-220
tail -2 /tmp/err
SANITIZE=0 SUITE_LOG=$OUT/suite.log SUITE_LIMIT=200 bash scripts/gpu-suite.sh run > /dev/null 2>&1 && echo SUITE PASSED || echo SUITE FAILED
grep "test result" $OUT/suite.log | sort | uniq -c
