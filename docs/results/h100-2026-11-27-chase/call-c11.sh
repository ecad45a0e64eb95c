mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
NY=.gpu/USA-road-d.NY.gr.gz
row() { .gpu/sssp bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print(x["graph"][-24:], x["algo"], x["balance"], x["dedupe"], x["delta"], x.get("buckets"), "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2; do
row $NY --device gpu --algos auto --trials 5
row $NY --device gpu --algos bucketing --balance vwarp --dedupe stamp --deltas 89442,119256,178884,238512 --trials 5
row gen:road:1000000 --device gpu --algos bucketing --balance vwarp --dedupe stamp --deltas 81240,108320,162480,216640 --trials 5
done
row $NY --device gpu --algos bucketing --balance vwarp --dedupe stamp --deltas 119256,178884 --buckets 5,20 --trials 5
row gen:road:4000000 --device gpu --algos bucketing --balance vwarp --dedupe stamp --deltas 108352,162528,216704 --trials 5
row gen:grid2d:1000x1000 --device gpu --algos near-far --balance vwarp --dedupe stamp --deltas 1025,2050,4100 --trials 5
tail -2 /tmp/err
