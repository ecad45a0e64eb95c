set -e
xz -dc .gpuexp/cnt.xz > /tmp/cnt && chmod +x /tmp/cnt
xz -dc .gpuexp/chase1.xz > /tmp/ch && chmod +x /tmp/ch
NY=.gpuexp/USA-road-d.NY.gr.gz
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader
row() { local tag=$1; local b=$2; shift; shift; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["balance"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2; do
for G in $NY gen:road:1000000; do
  row cnt /tmp/cnt $G --device gpu --algos auto --trials 5
  SSSP_CHASE=0 row ch0 /tmp/ch $G --device gpu --algos auto --trials 5
  SSSP_CHASE=1 row ch1 /tmp/ch $G --device gpu --algos auto --trials 5
done
done
for G in gen:road:4000000 gen:grid3d:256x256x256 gen:kron:16; do
  row cnt /tmp/cnt $G --device gpu --algos auto --trials 5
  SSSP_CHASE=0 row ch0 /tmp/ch $G --device gpu --algos auto --trials 5
  SSSP_CHASE=1 row ch1 /tmp/ch $G --device gpu --algos auto --trials 5
done
for b in 0 1; do
  SSSP_CHASE=$b row ch$b /tmp/ch gen:path:4000 --device gpu --algos workfront,bucketing --balance vwarp --dedupe stamp -s 0
done
tail -5 /tmp/err
