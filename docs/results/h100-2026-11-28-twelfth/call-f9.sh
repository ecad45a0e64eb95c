mkdir -p .gpu && tar xJf .gpupack/gpu.tar.xz -C .gpu
for b in h0 n4 n6; do xz -dc .gpuexp/c9/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
row() { local tag=$1; local b=$2; shift 2; $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
for rep in 1 2; do for k in 16 17 18; do
 row h0 /tmp/h0 gen:kron:$k --device gpu --algos auto --trials 5
 row n6 /tmp/n6 gen:kron:$k --device gpu --algos auto --trials 5
 for s in s64 s128 s256; do SSSP_PTX=.gpuexp/c9/$s.ptx row $s /tmp/n6 gen:kron:$k --device gpu --algos auto --trials 5; done
done; done
for g in .gpuexp/c9/USA-road-d.NY.gr.gz gen:road:1000000 gen:kron:20 gen:kron:22; do for b in h0 n6; do row $b /tmp/$b $g --device gpu --algos auto --trials 5; done; done
tail -2 /tmp/err
export SSSP_TEST_DEVICE=gpu
L=$OUT/san.log
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 .gpu/strategies --test-threads 1 kron star_with_hub hub_path >> $L 2>&1; echo "memcheck rc=$?"; grep -E "ERROR SUMMARY|test result" $L | tail -2
for s in s128 s256; do SSSP_PTX=.gpuexp/c9/$s.ptx .gpu/strategies 2>&1 | grep "test result" | sed "s/^/$s strategies: /"; done
SANITIZE=0 SUITE_LOG=$OUT/suite.log SUITE_LIMIT=200 bash scripts/gpu-suite.sh run > /dev/null 2>&1 && echo SUITE PASSED || echo SUITE FAILED
grep "test result" $OUT/suite.log | sort | uniq -c | awk '{s+=$1} END {print s, "binaries"}'; grep -c "test result: ok" $OUT/suite.log
for i in 1 2; do .gpu/strategies --test-threads 1 kron star grid 2>&1 | grep "test result"; done
