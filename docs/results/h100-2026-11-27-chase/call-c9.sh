set -e
for b in n15 fin fin2; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
NY=.gpuexp/USA-road-d.NY.gr.gz
nvidia-smi --query-gpu=name --format=csv,noheader
row() { local tag=$1; local b=$2; shift; shift; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2 3; do
 for b in n15 fin fin2; do
  row $b /tmp/$b $NY --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:road:1000000 --device gpu --algos auto --trials 5
 done
done
for rep in 1 2; do
 for b in n15 fin fin2; do
  row $b /tmp/$b gen:kron:16 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:kron:17 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:kron:18 --device gpu --algos auto --trials 5
 done
done
for b in n15 fin fin2; do
  row $b /tmp/$b gen:road:4000000 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:grid3d:256x256x256 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:grid2d:1000x1000 --device gpu --algos auto --trials 5
  row $b /tmp/$b gen:path:4000 --device gpu --algos workfront,bucketing,near-far --balance vwarp --dedupe stamp -s 0
done
tail -2 /tmp/err
