xz -dc .gpuexp/b46.xz > /tmp/new && chmod +x /tmp/new
row() { local b=$1; shift; /tmp/new bench "$@" --json 2>/dev/null | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$b'", x["graph"][:24], x["algo"], x["balance"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"])
' ; }
for rep in 1 2; do
for B in 2 1; do
  SSSP_LOOP_BLOCKS_PER_SM=$B row bps$B gen:kron:16 --device gpu --algos auto --trials 5
  SSSP_LOOP_BLOCKS_PER_SM=$B row bps$B gen:kron:17 --device gpu --algos auto --trials 5
  SSSP_LOOP_BLOCKS_PER_SM=$B row bps$B gen:kron:18 --device gpu --algos auto --trials 5
  SSSP_LOOP_BLOCKS_PER_SM=$B row bps$B gen:path:4000 --device gpu --algos workfront --balance partition --dedupe stamp -s 0
done
done
