xz -dc .gpuexp/s11.xz > /tmp/s && chmod +x /tmp/s
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
row() { local tag=$1; shift; env $ENVS /tmp/s bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-12:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2; do for k in 16 17 18; do ENVS= row base gen:kron:$k --device gpu --algos auto --trials 5; done; done
for b in 1 3 4 6 8; do for k in 16 18; do ENVS=SSSP_LOOP_BLOCKS_PER_SM=$b row bps$b gen:kron:$k --device gpu --algos auto --trials 5; done; done
for k in 16 18; do ENVS= row nf gen:kron:$k --device gpu --algos near-far,bucketing --balance partition --deltas 8,16,32,64 --trials 5; done
ENVS= row wf-lookup gen:kron:16 --device gpu --algos workfront --balance partition --dedupe lookup --trials 5
/tmp/s run gen:kron:16 --device gpu --algo workfront --balance partition -s 0 --trace - 2>/dev/null | head -14
/tmp/s run gen:kron:18 --device gpu --algo workfront --balance partition -s 0 --trace - 2>/dev/null | head -14
tail -2 /tmp/err
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
prof() { local tag=$1; shift
  timeout 150 $NCU --kernel-name regex:'^sssp_pile_loop_partition$' --launch-count 1 --set full --import-source no -f -o $OUT/$tag "$@" > $OUT/$tag.run.log 2>&1; echo "$tag rc=$?"; tail -2 $OUT/$tag.run.log
  $NCU --import $OUT/$tag.ncu-rep --page source --csv --print-source sass > $OUT/$tag-sass.csv 2>$OUT/$tag-sass.err; echo "sass rc=$? $(wc -l < $OUT/$tag-sass.csv)"
  $NCU --import $OUT/$tag.ncu-rep --page details --csv > $OUT/$tag-details.csv 2>&1; echo "details $(wc -l < $OUT/$tag-details.csv)"
  xz -T4 $OUT/$tag-sass.csv; rm -f $OUT/$tag.ncu-rep
}
prof k16 /tmp/s run gen:kron:16 --device gpu --algo auto -s 0
prof k18 /tmp/s run gen:kron:18 --device gpu --algo auto -s 0
ls -la $OUT
