xz -dc .gpuexp/h0.xz > /tmp/h0 && chmod +x /tmp/h0
row() { local tag=$1; shift 1; /tmp/h0 bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2; do
 for k in 16 17 18; do
  row base gen:kron:$k --device gpu --algos auto --trials 5
  for b in 2 3 4; do SSSP_PTX=.gpuexp/p$b.ptx SSSP_LOOP_BLOCKS_PER_SM=$b row p$b gen:kron:$k --device gpu --algos auto --trials 5; done
 done
done
tail -3 /tmp/err
