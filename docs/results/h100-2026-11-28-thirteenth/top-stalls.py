# Summarise an ncu `--page source --csv --print-source sass` export: stall reasons over the
# kernel, then the instructions with the most warp samples. Usage: python3 top-stalls.py FILE.csv
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[1]
data = [dict(zip(h, r)) for r in rows[2:] if len(r) == len(h)]
num = lambda x: float(x.replace(',', '') or 0) if x.replace(',', '').replace('.', '').isdigit() else 0.0
stalls = [c for c in h if c.startswith('stall_') and 'Not Issued' not in c]
total = sum(num(d['Warp Stall Sampling (All Samples)']) for d in data)
print('warp samples', total)
for s, v in sorted(((s, sum(num(d[s]) for d in data)) for s in stalls), key=lambda x: -x[1])[:8]:
    print(f'{s:28} {v:8.0f} {100 * v / total:5.1f}%')
print('instruction (index in the export), samples, times executed, top stall')
for i, d in sorted(enumerate(data), key=lambda x: -num(x[1]['Warp Stall Sampling (All Samples)']))[:25]:
    top = max((num(d[s]), s) for s in stalls)
    print(i, d['Source'].strip()[:56], num(d['Warp Stall Sampling (All Samples)']), num(d['Instructions Executed']), top)
