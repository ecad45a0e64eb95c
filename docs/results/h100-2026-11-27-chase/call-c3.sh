set -e
xz -dc .gpuexp/chase3.xz > /tmp/ch && chmod +x /tmp/ch
NY=.gpuexp/USA-road-d.NY.gr.gz
row() { local tag=$1; local b=$2; shift; shift; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for N in 0 128 512 2048 8192 4294967295; do
  for G in $NY gen:road:1000000 gen:road:4000000 gen:grid2d:1000x1000; do
    SSSP_CHASE=$N row N=$N /tmp/ch $G --device gpu --algos auto --trials 5
  done
done
for N in 0 512 2048 8192; do
    SSSP_CHASE=$N row N=$N /tmp/ch gen:grid3d:256x256x256 --device gpu --algos auto --trials 5
    SSSP_CHASE=$N row N=$N /tmp/ch $NY --device gpu --algos bucketing --balance vwarp --dedupe stamp --deltas 30000,60000,240000 --trials 5
done
tail -3 /tmp/err
