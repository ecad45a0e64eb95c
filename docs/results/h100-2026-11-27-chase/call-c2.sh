set -e
xz -dc .gpuexp/cnt.xz > /tmp/cnt && chmod +x /tmp/cnt
xz -dc .gpuexp/chase2.xz > /tmp/ch && chmod +x /tmp/ch
NY=.gpuexp/USA-road-d.NY.gr.gz
row() { local tag=$1; local b=$2; shift; shift; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["balance"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
three() { row cnt /tmp/cnt "$@"; SSSP_CHASE=0 row ch0 /tmp/ch "$@"; SSSP_CHASE=1 row ch1 /tmp/ch "$@"; }
for rep in 1 2; do
  three $NY --device gpu --algos auto --trials 5
  three gen:road:1000000 --device gpu --algos auto --trials 5
done
three gen:road:4000000 --device gpu --algos auto --trials 5
three gen:grid3d:256x256x256 --device gpu --algos auto --trials 5
three gen:grid2d:1000x1000 --device gpu --algos auto --trials 5
for G in gen:kron:16 gen:kron:17 gen:kron:18; do row cnt /tmp/cnt $G --device gpu --algos auto --trials 5; SSSP_CHASE=0 row ch0 /tmp/ch $G --device gpu --algos auto --trials 5; done
for b in 0 1; do
  SSSP_CHASE=$b row ch$b /tmp/ch gen:path:4000 --device gpu --algos workfront,bucketing --balance vwarp --dedupe stamp -s 0
done
row cnt /tmp/cnt gen:path:4000 --device gpu --algos workfront,bucketing --balance vwarp --dedupe stamp -s 0
SSSP_CHASE=1 row ch1d /tmp/ch $NY --device gpu --algos bucketing --balance vwarp --deltas 2000,4000,8000,16000 --trials 5
tail -3 /tmp/err
