cd .gpuexp
xz -dc cur.xz > /tmp/sssp && chmod +x /tmp/sssp
S=/tmp/sssp
row() { $S bench "$@" --json 2>/dev/null | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print(x["graph"][:22], x["algo"], x["balance"], x.get("chosen"), "median_ms %.4f" % x["median_ms"], "iters", x["iterations"], "work %.2f" % x["work"])
' ; }
for rep in 1 2; do
for B in 264 132 66; do
  echo "== grid $B"
  SSSP_LOOP_GRID=$B row gen:path:4000 --device gpu --algos workfront --balance vwarp --dedupe stamp -s 0
  SSSP_LOOP_GRID=$B row USA-road-d.NY.gr.gz --device gpu --algos auto --trials 5
  SSSP_LOOP_GRID=$B row gen:road:1000000 --device gpu --algos auto --trials 5
  SSSP_LOOP_GRID=$B row gen:kron:16 --device gpu --algos auto --trials 5
done
done
