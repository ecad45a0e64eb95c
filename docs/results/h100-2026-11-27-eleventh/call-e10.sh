for b in s11 a2 t3; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"])
' ; }
for rep in 1 2 3; do for cfg in s11 a2 t3; do row $cfg /tmp/$cfg gen:kron:24 --device gpu --algos auto --trials 5; row $cfg /tmp/$cfg gen:kron:22 --device gpu --algos auto --trials 5; done; done
for rep in 1 2; do for cfg in s11 a2 t3; do for k in 16 17 18 20; do row $cfg /tmp/$cfg gen:kron:$k --device gpu --algos auto --trials 5; done; done; done
tail -2 /tmp/err
