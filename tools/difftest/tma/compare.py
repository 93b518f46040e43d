import re, sys
from common import outputs, golden
DTN=['UINT8','UINT16','UINT32','INT32','UINT64','INT64','FLOAT16','FLOAT32','FLOAT64','BFLOAT16','FLOAT32_FTZ','TFLOAT32','TFLOAT32_FTZ']
SWN=['NONE','32B','64B','128B']
seed=sys.argv[1]
lines=[];exp=[]
for i,c,rc,sec in outputs(seed):
    if len(sec)<2: continue
    g,s=sec[0],sec[1]
    args=[c['op'],c['T'],c.get('tt','default'),g,s,f"(_{c['bM']},_{c['bK']})",f"_{c['cl']}"]
    if rc!=0:
        lines.append({'op':'make_tma_copy','args':args}); exp.append(('ERR',rc)); continue
    enc_t=sec[2]
    m=re.match(r'ENCODE (\d+) (\d+) (\S+) (\S*) (\S*) (\S*) (\S*) (\d+)\n(.*)',enc_t,re.S)
    L=lambda x:[int(v) for v in x.split(',') if v]
    enc=dict(tensorDataType='CU_TENSOR_MAP_DATA_TYPE_'+DTN[int(m.group(1))],tensorRank=int(m.group(2)),globalDim=L(m.group(4)),globalStrides=L(m.group(5)),boxDim=L(m.group(6)),elementStrides=L(m.group(7)),swizzle='CU_TENSOR_MAP_SWIZZLE_'+SWN[int(m.group(8))])
    tt=m.group(9); gb=sec[3]; pr=sec[4]
    lines.append({'op':'make_tma_copy','args':args}); exp.append(('OK',dict(enc=enc,tma_tensor=tt,tma_gbasis=gb,print=pr+'\n' )))
    for k,sl in enumerate([0,c['cl']-1]):
        ps,pd=sec[5+2*k],sec[6+2*k]
        lines.append({'op':'tma_copy_partition','args':args+[str(sl)]}); exp.append(('OK',dict(partition_S=ps,partition_D=pd)))
got=golden(lines)
ok=bad=0
for l,e,a in zip(lines,exp,got):
    if e[0]=='ERR':
        if a.get('error'): ok+=1
        else: bad+=1; print('WANT ERROR rc',e[1],l['args'])
        continue
    if a.get('error'):
        bad+=1; print('GOT ERROR',l['op'],l['args'],a['error'][:300]); continue
    G=a['got']; W=e[1]; diff=[]
    if 'enc' in W:
        for k,v in W['enc'].items():
            if G['encode'][k]!=v: diff.append((k,v,G['encode'][k]))
        for k in ('tma_tensor','tma_gbasis'):
            if G[k]!=W[k]: diff.append((k,W[k],G[k]))
        if G['print']!=W['print']: diff.append(('print',W['print'],G['print']))
    else:
        for k in W:
            if G[k]!=W[k]: diff.append((k,W[k],G[k]))
    if diff: bad+=1; print('DIFF',l['op'],l['args'],diff)
    else: ok+=1
print('seed',seed,'ok',ok,'bad',bad)
