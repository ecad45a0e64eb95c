# row TAG BINARY ARGS...: one `sssp bench --json` run (stopped after ROW_LIMIT seconds, default 60: a hang costs a row,
# not the call), each of its rows printed short.
row() { local tag=$1; local b=$2; shift 2; timeout ${ROW_LIMIT:-60} $b bench "$@" --json 2>>/tmp/err | python3 -c '
import json,sys
for l in sys.stdin:
    try: x=json.loads(l)
    except Exception: continue
    print("'$tag'", x["graph"][-16:], x["algo"], x["balance"], x["delta"], "median_ms %.4f" % x["median_ms"], "min %.4f" % x["min_ms"], "iters", x["iterations"], "work %.2f" % x["work"], "verified", x["verified"])
' ; }
