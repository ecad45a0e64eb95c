set -e
xz -dc .gpuexp/chase3.xz > /tmp/c3 && chmod +x /tmp/c3
xz -dc .gpuexp/chase4.xz > /tmp/c4 && chmod +x /tmp/c4
NY=.gpuexp/USA-road-d.NY.gr.gz
row() { local tag=$1; local b=$2; shift; shift; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2; do
for N in 0 1 2048 4294967295; do
  for b in c3 c4; do
    SSSP_CHASE=$N row $b-N=$N /tmp/$b $NY --device gpu --algos auto --trials 5
  done
done
done
for G in gen:road:1000000 gen:road:4000000 gen:grid2d:1000x1000; do
for N in 0 1 2048; do
  for b in c3 c4; do
    SSSP_CHASE=$N row $b-N=$N /tmp/$b $G --device gpu --algos auto --trials 5
  done
done
done
for N in 0 1 4294967295; do
  for b in c3 c4; do
    SSSP_CHASE=$N row $b-N=$N /tmp/$b gen:path:4000 --device gpu --algos workfront,bucketing --balance vwarp --dedupe stamp -s 0
  done
done
for b in c3 c4; do SSSP_CHASE=0 row $b /tmp/$b gen:grid3d:256x256x256 --device gpu --algos auto --trials 5; done
tail -3 /tmp/err
