for b in s11 l1; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-12:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2; do for cfg in s11 l1; do for k in 16 17 18; do row $cfg /tmp/$cfg gen:kron:$k --device gpu --algos auto --trials 5; done; done; done
for cfg in s11 l1; do for k in 20 22 24; do row $cfg /tmp/$cfg gen:kron:$k --device gpu --algos auto --trials 5; done; done
for cfg in s11 l1; do row $cfg /tmp/$cfg gen:kron:16 --device gpu --algos near-far,bucketing --balance partition --dedupe stamp --deltas 16,64 --trials 5; done
for cfg in s11 l1; do /tmp/$cfg run gen:kron:16 --device gpu --algo workfront --balance partition -s 0 --trace - 2>/dev/null | head -14 | tr '\n' ' '; echo; done
tail -2 /tmp/err
