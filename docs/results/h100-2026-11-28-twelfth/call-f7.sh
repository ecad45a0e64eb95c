for b in n4 n5; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2 3; do for k in 16 17 18; do
 for b in n4 n5; do row $b /tmp/$b gen:kron:$k --device gpu --algos auto --trials 5; done
done; done
for b in n4 n5; do row $b /tmp/$b gen:kron:16 --device gpu --algos near-far,bucketing --balance partition --dedupe stamp --deltas 64 --trials 5; done
tail -2 /tmp/err
