for b in n5; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2 3; do for k in 16 17 18; do
 row n5 /tmp/n5 gen:kron:$k --device gpu --algos auto --trials 5
 for s in s64 s128 s256; do SSSP_PTX=.gpuexp/$s.ptx row $s /tmp/n5 gen:kron:$k --device gpu --algos auto --trials 5; done
done; done
tail -2 /tmp/err
