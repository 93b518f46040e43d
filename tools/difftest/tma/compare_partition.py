import sys
from common import outputs, golden
seed=sys.argv[1]
lines=[];exp=[]
for i,c,rc,sec in outputs(seed):
    if rc!=0 or len(sec)<9: print('case',i,'rc',rc); continue
    g,s,sA,gA,cl=sec[:5]; g=g.split('\n')[-1]
    base=[c['op'],c['T'],'default',g,s,f"(_{c['bM']},_{c['bK']})",f"_{c['cl']}",sA,gA]
    for k,cta in enumerate([0,c['cl']-1]):
        lines.append({'op':'tma_partition','args':base+[str(cta),cl]}); exp.append(dict(tAgA=sec[5+2*k],tAsA=sec[6+2*k]))
ok=bad=0
for l,e,a in zip(lines,exp,golden(lines)):
    if a.get('error'): bad+=1; print('ERR',l['args'],a['error'][:300]); continue
    if a['got']!=e: bad+=1; print('DIFF',l['args'],e,a['got'])
    else: ok+=1
print('seed',seed,'ok',ok,'bad',bad)
