for b in s11 l1; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-12:], x["algo"], x["balance"], x.get("hub_degree"), x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"])
' ; }
for k in 16 18; do
 row s11 /tmp/s11 gen:kron:$k --device gpu --algos workfront --balance vwarp,cta,cta-warp-scan,thread --hub-degrees 32,64,256 --trials 5
 row s11 /tmp/s11 gen:kron:$k --device gpu --algos workfront,near-far --balance partition --classify on,off --trials 5
 row s11-deg /tmp/s11 gen:kron:$k --device gpu --algos auto,workfront --balance partition --order degree --trials 5
 row s11-bfs /tmp/s11 gen:kron:$k --device gpu --algos auto --order bfs --trials 5
done
tail -3 /tmp/err
