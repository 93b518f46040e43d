import json,sys,subprocess,re
seed=sys.argv[1]
cases=json.load(open(f'rnd/r{seed}.json'))
lines=[];exp=[]
for i,c in enumerate(cases):
    try: out=open(f'rnd/r{seed}.{i}.out').read().replace('\0','')
    except FileNotFoundError: continue
    rc=int(re.search(r'rc=(\d+)',out).group(1)); out=out[:out.rindex('rc=')]
    sec=out.split('\n@@\n')
    if rc!=0 or len(sec)<9: print('case',i,'rc',rc); continue
    g,s,sA,gA,cl=sec[:5]; g=g.split('\n')[-1]
    base=[c['op'],c['T'],'default',g,s,f"(_{c['bM']},_{c['bK']})",f"_{c['cl']}",sA,gA]
    for k,cta in enumerate([0,c['cl']-1]):
        lines.append({'op':'tma_partition','args':base+[str(cta),cl]}); exp.append(dict(tAgA=sec[5+2*k],tAsA=sec[6+2*k]))
r=subprocess.run(['/tmp/cute','golden'],input='\n'.join(json.dumps(l) for l in lines),capture_output=True,text=True)
ok=bad=0
for l,e,a in zip(lines,exp,[json.loads(x) for x in r.stdout.splitlines()]):
    if a.get('error'): bad+=1; print('ERR',l['args'],a['error'][:300]); continue
    if a['got']!=e: bad+=1; print('DIFF',l['args'],e,a['got'])
    else: ok+=1
print('seed',seed,'ok',ok,'bad',bad)
