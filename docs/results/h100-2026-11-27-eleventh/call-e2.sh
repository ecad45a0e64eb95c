xz -dc .gpuexp/b8.xz > /tmp/new && chmod +x /tmp/new
xz -dc .gpuexp/s11.xz > /tmp/s11 && chmod +x /tmp/s11

NY=.gpuexp/USA-road-d.NY.gr.gz
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-12:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2; do for cfg in s11 new; do for k in 16 17 18; do row $cfg /tmp/$cfg gen:kron:$k --device gpu --algos auto --trials 5; done; done; done
for cfg in s11 new; do for k in 20 22; do row $cfg /tmp/$cfg gen:kron:$k --device gpu --algos auto --trials 5; done; row $cfg /tmp/$cfg $NY --device gpu --algos auto --trials 5; done
for cfg in s11 new; do row $cfg /tmp/$cfg gen:kron:16 --device gpu --algos near-far,bucketing --balance partition --dedupe stamp --deltas 16,64 --trials 5; done
/tmp/new run gen:kron:16 --device gpu --algo workfront --balance partition -s 0 --trace - 2>/dev/null | head -14
tail -2 /tmp/err
