"""Figures per family of the Spark SQL corpus from its status file.

    python3 scripts/sparksql/families.py runner/sparksql/testdata/corpus/status.txt [PART...]

PART is round1, round1-heldout, round2 or heldout2 (default: all). For each
family (a corpus file): steps, exact (Spark's rows and types), s-err (fails
with Spark's error class), refused (rejected at translation naming the
construct), different (another result: must be 0) and err-mism (an error
mismatch: fails where Spark succeeds, another class, succeeds where Spark
fails, or claims an error Spark does not raise: must be 0).
"""
import re,sys,collections
rows=collections.OrderedDict()
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip(): continue
    f=line.split()
    cat,st=f[0],f[2]
    part,_,fam=cat.rpartition('/')
    part=part or 'round1'
    if part=='heldout': part='round1-heldout'
    key=(part,fam)
    t=rows.setdefault(key,collections.Counter())
    t['n']+=1
    m={'exact':'exact','error':'same-error','rejected':'refused','DIFFERENT':'different'}.get(st,'error-mismatch')
    t[m]+=1
want=sys.argv[2:] or None
print("%-16s %-13s %5s %5s %5s %7s %9s %8s"%('part','family','steps','exact','s-err','refused','different','err-mism'))
tot=collections.defaultdict(collections.Counter)
for (p,fam),t in rows.items():
    if want and p not in want: continue
    print("%-16s %-13s %5d %5d %5d %7d %9d %8d"%(p,fam,t['n'],t['exact'],t['same-error'],t['refused'],t['different'],t['error-mismatch']))
    tot[p]+=t
for p,t in tot.items():
    print("%-16s %-13s %5d %5d %5d %7d %9d %8d"%(p,'TOTAL',t['n'],t['exact'],t['same-error'],t['refused'],t['different'],t['error-mismatch']))
