set -e
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
xz -dc .gpuexp/head.xz > /tmp/head && chmod +x /tmp/head
cp .gpu/sssp /tmp/new
NY=.gpu/USA-road-d.NY.gr.gz
nvidia-smi --query-gpu=name --format=csv,noheader
row() { local tag=$1; local b=$2; local c=$3; shift 3; SSSP_CARRY=$c $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
cfgs="head:/tmp/head:1 carry:/tmp/new:1 fold:/tmp/new:0"
for rep in 1 2 3; do
 for cfg in $cfgs; do IFS=: read t b c <<< "$cfg"
  row $t $b $c $NY --device gpu --algos auto --trials 5
  row $t $b $c gen:road:1000000 --device gpu --algos auto --trials 5
 done
done
for rep in 1 2; do
 for cfg in $cfgs; do IFS=: read t b c <<< "$cfg"
  row $t $b $c gen:kron:16 --device gpu --algos auto --trials 5
  row $t $b $c gen:kron:18 --device gpu --algos auto --trials 5
 done
done
for cfg in $cfgs; do IFS=: read t b c <<< "$cfg"
  row $t $b $c gen:road:4000000 --device gpu --algos auto --trials 5
  row $t $b $c gen:grid3d:256x256x256 --device gpu --algos auto --trials 5
  row $t $b $c gen:grid2d:1000x1000 --device gpu --algos auto --trials 5
  row $t $b $c gen:kron:20 --device gpu --algos auto --trials 5
  row $t $b $c gen:kron:22 --device gpu --algos auto --trials 5
  row $t $b $c gen:path:4000 --device gpu --algos workfront,bucketing,near-far --balance vwarp --dedupe stamp -s 0
  row $t $b $c gen:path:4000 --device gpu --algos workfront --balance thread --dedupe stamp -s 0
done
tail -2 /tmp/err
