cd .gpuexp
xz -dc cur.xz > /tmp/sssp && chmod +x /tmp/sssp
S=/tmp/sssp
row() { $S bench "$@" --json 2>/dev/null | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print(x["graph"][:22], x["algo"], x["balance"], "delta", x.get("delta"), "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"])
' ; }
for rep in 1 2; do
for B in 264 132; do
  echo "== grid $B"
  SSSP_LOOP_GRID=$B row gen:road:4000000 --device gpu --algos auto --trials 5
  SSSP_LOOP_GRID=$B row gen:grid3d:256x256x256 --device gpu --algos auto --trials 5
  SSSP_LOOP_GRID=$B row gen:grid2d:1000x1000 --device gpu --algos auto --trials 5
done
done
for B in 264 132; do
  echo "== sweep grid $B"
  SSSP_LOOP_GRID=$B row USA-road-d.NY.gr.gz --device gpu --algos bucketing --balance vwarp --dedupe stamp --deltas 29814,59628,119256,238512 --trials 5
  SSSP_LOOP_GRID=$B row gen:road:1000000 --device gpu --algos bucketing --balance vwarp --dedupe stamp --deltas 54160,108320,216640 --trials 5
done
