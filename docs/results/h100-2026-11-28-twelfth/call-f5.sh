xz -dc .gpuexp/n3.xz > /tmp/n3 && chmod +x /tmp/n3
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for k in 16 17 18; do
 row n3 /tmp/n3 gen:kron:$k --device gpu --algos auto --trials 5
 row n3 /tmp/n3 gen:kron:$k --device gpu --algos near-far,bucketing --balance partition --dedupe stamp --deltas 32,64,128,256,512 --trials 5
 row n3 /tmp/n3 gen:kron:$k --device gpu --algos async --trials 5
done
tail -2 /tmp/err
