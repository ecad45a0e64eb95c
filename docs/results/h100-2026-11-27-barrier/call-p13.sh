xz -dc .gpuexp/b46.xz > /tmp/old && chmod +x /tmp/old
xz -dc .gpuexp/cnt.xz > /tmp/cnt && chmod +x /tmp/cnt
xz -dc .gpuexp/cntw.xz > /tmp/cntw && chmod +x /tmp/cntw
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu USA-road-d.NY.gr.gz
NY=.gpu/USA-road-d.NY.gr.gz
row() { local b=$1; shift; /tmp/$b bench "$@" --json 2>/dev/null | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$b'", x["graph"][:24], x["algo"], x["balance"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2 3; do
for b in old cnt cntw; do
  row $b $NY --device gpu --algos auto --trials 5
  row $b gen:kron:16 --device gpu --algos auto --trials 5
  row $b gen:kron:17 --device gpu --algos auto --trials 5
  row $b gen:kron:18 --device gpu --algos auto --trials 5
done
done
for b in old cnt cntw; do
  row $b gen:road:1000000 --device gpu --algos auto --trials 5
  row $b gen:path:4000 --device gpu --algos workfront --balance vwarp --dedupe stamp -s 0
  row $b gen:path:4000 --device gpu --algos workfront --balance partition --dedupe stamp -s 0
done
