import random, sys
from common import write_program
seed=int(sys.argv[1]); N=int(sys.argv[2])
random.seed(seed)
TYPES={'int8_t':8,'uint8_t':8,'float_e4m3_t':8,'half_t':16,'bfloat16_t':16,'uint16_t':16,'float':32,'tfloat32_t':32,'int32_t':32,'uint32_t':32,'double':64,'uint64_t':64,'int64_t':64}
DT={'int8_t':'UINT8','uint8_t':'UINT8','float_e4m3_t':'UINT8','half_t':'FLOAT16','bfloat16_t':'BFLOAT16','uint16_t':'UINT16','float':'FLOAT32','tfloat32_t':'TFLOAT32','int32_t':'INT32','uint32_t':'UINT32','double':'FLOAT64','uint64_t':'UINT64','int64_t':'INT64'}
DTN=['UINT8','UINT16','UINT32','INT32','UINT64','INT64','FLOAT16','FLOAT32','FLOAT64','BFLOAT16','FLOAT32_FTZ','TFLOAT32','TFLOAT32_FTZ']
SWN=['NONE','32B','64B','128B']
cases=[]
for i in range(N):
    T=random.choice(list(TYPES)); bits=TYPES[T]
    kmajor=random.random()<0.5
    bM=random.choice([64,128,256]); bK=random.choice([16,32,64,128,256])
    ele128=1024//bits  # elements per 128B
    pass
    M0=0
    M=bM*random.choice([1,2,5,8])+random.choice([0,0,0,3]); K=bK*random.choice([1,2,4])+random.choice([0,0,5])
    pad=random.choice([0,0,0,8,16])
    batch = random.random()<0.3
    if kmajor: gl=f"make_layout(make_shape({M},{K}), make_stride({K+pad},Int<1>{{}}))"
    else: gl=f"make_layout(make_shape({M},{K}), make_stride(Int<1>{{}},{M+pad}))"
    if batch:
        L=random.choice([1,3])
        vol=(K+pad)*M if kmajor else (M+pad)*K
        if kmajor: gl=f"make_layout(make_shape({M},{K},{L}), make_stride({K+pad},Int<1>{{}},{vol}))"
        else: gl=f"make_layout(make_shape({M},{K},{L}), make_stride(Int<1>{{}},{M+pad},{vol}))"
    kind=random.choice(['gmma','gmma','plain','pad'])
    if kind=='gmma':
        sw=random.choice(['INTER','SW32','SW64','SW128'])
        mj='K' if kmajor else 'MN'
        w={'INTER':128,'SW32':256,'SW64':512,'SW128':1024}[sw]//bits
        if kmajor and bK % w: bK = w*random.choice([1,2])
        if (not kmajor) and bM % w: bM = w*random.choice([1,2])
        if bM>256 or bK>256: kind='plain'
        stages=random.choice([0,2,3])
        if stages:
            smem=f"tile_to_shape(GMMA::Layout_{mj}_{sw}_Atom<{T}>{{}}, make_shape(Int<{bM}>{{}},Int<{bK}>{{}},Int<{stages}>{{}}))(_,_,0)"
        else:
            smem=f"tile_to_shape(GMMA::Layout_{mj}_{sw}_Atom<{T}>{{}}, make_shape(Int<{bM}>{{}},Int<{bK}>{{}}))"
    if kind=='plain':
        smem = f"make_layout(make_shape(Int<{bM}>{{}},Int<{bK}>{{}}), {'LayoutRight{}' if kmajor else 'LayoutLeft{}'})"
    elif kind=='pad':
        p=random.choice([4,8,16])
        if kmajor: smem=f"make_layout(make_shape(Int<{bM}>{{}},Int<{bK}>{{}}), make_stride(Int<{bK+p}>{{}},Int<1>{{}}))"
        else: smem=f"make_layout(make_shape(Int<{bM}>{{}},Int<{bK}>{{}}), make_stride(Int<1>{{}},Int<{bM+p}>{{}}))"
    op=random.choice(['SM90_TMA_LOAD','SM90_TMA_LOAD_MULTICAST','SM90_TMA_STORE','SM90_TMA_REDUCE_ADD'])
    cl=random.choice([2,4,8,16]) if op=='SM90_TMA_LOAD_MULTICAST' else 1
    tt='default'
    if random.random()<0.25:
        tt=random.choice({8:['uint8_t'],16:['uint8_t','uint16_t','uint32_t'],32:['uint8_t','uint16_t','uint32_t','uint64_t'],64:['uint32_t','uint64_t']}[bits])
    cases.append(dict(T=T,gl=gl,smem=smem,bM=bM,bK=bK,op=op,cl=cl,tt=tt))
src=[]
for i,c in enumerate(cases):
    load = c['op'] in ('SM90_TMA_LOAD','SM90_TMA_LOAD_MULTICAST')
    NL='printf("\\n@@\\n");'
    parts = (f'print(thr.partition_S(gA)); {NL} print(thr.partition_D(sA));' if load else f'print(thr.partition_S(sA)); {NL} print(thr.partition_D(gA));')
    src.append(f'''void case_{i}() {{
  auto g = make_tensor(make_gmem_ptr(({c['T']}*)0x7f0000000000), {c['gl']});
  auto s = {c['smem']};
  print(g); printf("\\n@@\\n"); print(s); printf("\\n@@\\n"); fflush(stdout);
  auto tiler = make_shape(Int<{c['bM']}>{{}},Int<{c['bK']}>{{}});
  auto tma = make_tma_copy{'' if c['tt']=='default' else '<'+c['tt']+'>'}({c['op']}{{}}, g, s, tiler, Int<{c['cl']}>{{}});
  print(tma.get_tma_tensor(shape(g))); printf("\\n@@\\n");
  print(typename decltype(tma)::AuxParams::TmaGmemBasis{{}}); printf("\\n@@\\n");
  print(tma); printf("@@\\n");
  Tensor mA = tma.get_tma_tensor(shape(g)); Tensor gA = flat_divide(mA, tiler);
  Tensor sA = make_tensor(make_smem_ptr(({c['T']}*)0x400), s);
  for (int sl : {{0, {c['cl']-1}}}) {{
    auto thr = tma.get_slice(sl);
    {parts}
    printf("\\n@@\\n");
  }}
}}''')
write_program(seed, cases, src)
