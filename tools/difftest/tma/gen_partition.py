import random, sys
from common import write_program
seed=int(sys.argv[1]); N=int(sys.argv[2])
random.seed(seed)
TYPES={'int8_t':8,'half_t':16,'bfloat16_t':16,'float':32,'tfloat32_t':32,'double':64,'uint64_t':64}
cases=[]
for i in range(N):
    T=random.choice(list(TYPES)); bits=TYPES[T]
    kmajor=random.random()<0.5
    sw=random.choice(['INTER','SW32','SW64','SW128'])
    w={'INTER':128,'SW32':256,'SW64':512,'SW128':1024}[sw]//bits
    bM=random.choice([64,128,256]); bK=random.choice([16,32,64,128])
    if kmajor and bK % w: bK=w
    if (not kmajor) and bM % w: bM=w
    if bK>256 or bM>256 or bM*bK*bits//8 > 65536: bM,bK=64,w if kmajor else 16
    P=random.choice([1,2,3])
    M=bM*random.choice([2,5])+random.choice([0,3]); K=bK*random.choice([2,4])
    pad=random.choice([0,8])
    if kmajor: gl=f"make_layout(make_shape({M},{K}), make_stride({K+pad},Int<1>{{}}))"
    else: gl=f"make_layout(make_shape({M},{K}), make_stride(Int<1>{{}},{M+pad}))"
    op=random.choice(['SM90_TMA_LOAD','SM90_TMA_LOAD_MULTICAST'])
    cl=random.choice([2,4]) if op=='SM90_TMA_LOAD_MULTICAST' else 1
    m=random.randrange(0,(M+bM-1)//bM)
    cases.append(dict(T=T,gl=gl,mj='K' if kmajor else 'MN',sw=sw,bM=bM,bK=bK,P=P,op=op,cl=cl,m=m))
src=[]
for i,c in enumerate(cases):
    src.append(f'''void case_{i}() {{
  auto g = make_tensor(make_gmem_ptr(({c['T']}*)0x7f0000000000), {c['gl']});
  auto sfull = tile_to_shape(GMMA::Layout_{c['mj']}_{c['sw']}_Atom<{c['T']}>{{}}, make_shape(Int<{c['bM']}>{{}},Int<{c['bK']}>{{}},Int<{c['P']}>{{}}));
  auto s = sfull(_,_,0);
  auto tiler = make_shape(Int<{c['bM']}>{{}},Int<{c['bK']}>{{}});
  auto atom = make_tma_atom({c['op']}{{}}, g, s, tiler, Int<{c['cl']}>{{}});
  Tensor sA = group_modes<0,2>(make_tensor(make_smem_ptr(({c['T']}*)0x400), sfull));
  Tensor mA = atom.get_tma_tensor(shape(g));
  Tensor gA = group_modes<0,2>(local_tile(mA, tiler, make_coord({c['m']},_)));
  auto cl = make_layout(Int<{c['cl']}>{{}});
  print(g); printf("\\n@@\\n"); print(s); printf("\\n@@\\n"); print(sA); printf("\\n@@\\n"); print(gA); printf("\\n@@\\n"); print(cl); printf("\\n@@\\n");
  for (int k : {{0, {c['cl']-1}}}) {{
    auto [tAgA, tAsA] = tma_partition(atom, k, cl, sA, gA);
    print(tAgA); printf("\\n@@\\n"); print(tAsA); printf("\\n@@\\n");
  }}
}}''')
write_program(seed, cases, src)
