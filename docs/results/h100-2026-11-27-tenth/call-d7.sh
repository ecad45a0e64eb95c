set -e
xz -dc .gpuexp/head.xz > /tmp/head && chmod +x /tmp/head
xz -dc .gpuexp/lean.xz > /tmp/lean && chmod +x /tmp/lean
zcat .gpuexp/USA-road-d.NY.gr.gz > /tmp/NY.gr
NY=/tmp/NY.gr
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2 3; do
 for t in head lean; do
  row $t /tmp/$t $NY --device gpu --algos auto --trials 5
  row $t /tmp/$t gen:road:1000000 --device gpu --algos auto --trials 5
 done
done
for t in head lean; do
  row $t /tmp/$t gen:road:4000000 --device gpu --algos auto --trials 5
  row $t /tmp/$t gen:grid3d:256x256x256 --device gpu --algos auto --trials 5
  row $t /tmp/$t gen:grid2d:1000x1000 --device gpu --algos auto --trials 5
  row $t /tmp/$t gen:path:4000 --device gpu --algos workfront,bucketing,near-far --balance vwarp --dedupe stamp -s 0
done
tail -2 /tmp/err
