set -e
mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
xz -dc .gpuexp/head.xz > /tmp/head && chmod +x /tmp/head
cp .gpu/sssp /tmp/new
for f in .gpuexp/old.fatbin crates/sssp-host/ptx/sssp_kernels.fatbin; do
  cuobjdump -sass -fun sssp_pile_loop $f > /tmp/sass.txt 2>&1 || true
  echo "$f: $(grep -c 'WARPSYNC' /tmp/sass.txt) WARPSYNC, $(grep -c 'BRA.DIV' /tmp/sass.txt) BRA.DIV, $(grep -c 'BAR.SYNC' /tmp/sass.txt) BAR.SYNC, $(grep -c '/\*[0-9a-f]*\*/' /tmp/sass.txt) instr (sm_90 and others)"
done
NY=.gpu/USA-road-d.NY.gr.gz
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-24:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2 3; do
 for t in head new; do
  row $t /tmp/$t $NY --device gpu --algos auto --trials 5
  row $t /tmp/$t gen:road:1000000 --device gpu --algos auto --trials 5
  row $t /tmp/$t gen:kron:16 --device gpu --algos auto --trials 5
 done
done
for t in head new; do
  row $t /tmp/$t gen:kron:18 --device gpu --algos auto --trials 5
  row $t /tmp/$t gen:road:4000000 --device gpu --algos auto --trials 5
  row $t /tmp/$t gen:grid3d:256x256x256 --device gpu --algos auto --trials 5
  row $t /tmp/$t gen:path:4000 --device gpu --algos workfront,bucketing,near-far --balance vwarp --dedupe stamp -s 0
  row $t /tmp/$t gen:path:4000 --device gpu --algos workfront,near-far --balance partition --dedupe stamp -s 0
done
tail -2 /tmp/err
