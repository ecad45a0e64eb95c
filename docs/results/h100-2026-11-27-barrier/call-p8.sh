mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
S=.gpu/sssp
row() { $S bench "$@" --json 2>/dev/null | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print(x["graph"][:24], x["algo"], x["balance"], "delta", x.get("delta"), "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"])
' ; }
for g in 16 17 18; do
  row gen:kron:$g --device gpu --algos auto --trials 5
  row gen:kron:$g --device gpu --algos near-far,bucketing --balance partition --deltas 16,32,64,128,256 --trials 5
done
