for b in h0 n3 n4; do xz -dc .gpuexp/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2 3; do for k in 16 17 18; do
 row h0 /tmp/h0 gen:kron:$k --device gpu --algos auto --trials 5
 row n3 /tmp/n3 gen:kron:$k --device gpu --algos auto --trials 5
 row n4 /tmp/n4 gen:kron:$k --device gpu --algos auto --trials 5
 SSSP_PTX=.gpuexp/pa.ptx row n4pa /tmp/n4 gen:kron:$k --device gpu --algos auto --trials 5
 SSSP_PTX=.gpuexp/pb.ptx row n4pb /tmp/n4 gen:kron:$k --device gpu --algos auto --trials 5
done; done
for b in h0 n4; do row $b /tmp/$b gen:kron:16 --device gpu --algos async --trials 3; done
tail -2 /tmp/err
