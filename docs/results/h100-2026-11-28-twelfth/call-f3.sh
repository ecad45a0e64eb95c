for b in h0 n2; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2 3; do for k in 16 17 18; do
 row h0 /tmp/h0 gen:kron:$k --device gpu --algos auto --trials 5
 row n2 /tmp/n2 gen:kron:$k --device gpu --algos auto --trials 5
 SSSP_PUSH_PREFIX=0 row n2off /tmp/n2 gen:kron:$k --device gpu --algos auto --trials 5
done; done
for rep in 1 2; do for g in .gpuexp/USA-road-d.NY.gr.gz gen:road:1000000 gen:kron:20 gen:kron:22; do
 row h0 /tmp/h0 $g --device gpu --algos auto --trials 5
 row n2 /tmp/n2 $g --device gpu --algos auto --trials 5
done; done
tail -2 /tmp/err
