mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu sssp
row() { .gpu/sssp bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print(x["graph"][-24:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
row gen:grid2d:500x500 --device gpu --algos near-far,bucketing --balance vwarp --dedupe stamp --deltas 1027,2054,4108,8216 --trials 5
row gen:grid2d:1000x1000 --device gpu --algos near-far,bucketing --balance vwarp --dedupe stamp --deltas 1025,2050,4100,8200 --trials 5
row gen:grid2d:2000x2000 --device gpu --algos near-far --balance vwarp --dedupe stamp --deltas 1024,2048,4096,8192 --trials 5
row gen:grid3d:64x64x64 --device gpu --algos near-far --balance vwarp --dedupe stamp --deltas 694,1388,2776 --trials 5
row gen:grid3d:128x128x128 --device gpu --algos near-far --balance vwarp --dedupe stamp --deltas 688,1376,2752 --trials 5
row gen:grid3d:256x256x256 --device gpu --algos near-far --balance vwarp --dedupe stamp --deltas 685,1370,2740 --trials 5
tail -2 /tmp/err
