for b in s11 l1 b8; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-14:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "us/it %.2f" % (1000*x["median_ms"]/max(1,x["iterations"])), "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for cfg in s11 l1 b8; do
 row $cfg /tmp/$cfg gen:path:4000 --device gpu --algos workfront --balance partition --dedupe stamp -s 0
 row $cfg /tmp/$cfg gen:grid2d:1000x1000 --device gpu --algos workfront --balance partition,vwarp --dedupe stamp --trials 3
 row $cfg /tmp/$cfg gen:kron:16 --device gpu --algos workfront --balance partition --dedupe stamp --trials 5 --weights unit
done
