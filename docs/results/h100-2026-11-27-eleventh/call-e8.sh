for b in l1 c4 c2 c1; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-14:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "us/it %.2f" % (1000*x["median_ms"]/max(1,x["iterations"])), "work %.2f" % x["work"])
' ; }
for rep in 1 2; do for cfg in l1 c4 c2 c1; do for k in 16 17 18 20; do row $cfg /tmp/$cfg gen:kron:$k --device gpu --algos auto --trials 5; done; done; done
for cfg in l1 c4 c2 c1; do row $cfg /tmp/$cfg gen:grid2d:1000x1000 --device gpu --algos workfront --balance partition --dedupe stamp --trials 3; row $cfg /tmp/$cfg gen:kron:22 --device gpu --algos auto --trials 5; done
tail -2 /tmp/err
