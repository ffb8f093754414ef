#!/usr/bin/env python3
"""An independent oracle for cuzk's SnapDeals (EmptySectorUpdate) code, written from the public
sources (rust-fil-proofs storage-proofs-update constants.rs, challenges.rs, vanilla.rs; neptune's
plain Poseidon; storage-proofs-core's MerkleProof serde layout, bincode 1.x), sharing no code
with the C implementation. Poseidon is the plain (unoptimised) permutation of the project's
reference model (../shared/filecoin/model/poseidon_ref.py, copied here so the tests need nothing
outside the repository).

    snap_oracle.py inputs RP COMM_R_OLD COMM_D_NEW COMM_R_NEW
        the public inputs of every partition as verify-update --print-inputs prints them
    snap_oracle.py check VPROOFS.json RP COMM_R_OLD COMM_D_NEW COMM_R_NEW
        reads Curio's JSON file of partition proofs and checks every one as vanilla.rs verify does
        (exit 0: all valid; 1 with the reason)
    snap_oracle.py tamper VPROOFS.json DIR
        writes damaged copies into DIR for the CLI test (leaf_r_old, sib_d, comm_c, trunc, two, b64)

RP is a RegisteredUpdateProof (0..4); commitments are 64 hex digits, the bytes as stored (LE)."""
import base64, hashlib, json, os, sys

P = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001

# ---- plain Poseidon (neptune, Strength::Standard): Grain LFSR constants, Cauchy MDS ----
RP_OF_T = {3: 55, 5: 56, 9: 57, 12: 57}
_CONSTS = {}

def _grain(t, rf, rp):
    bits = []
    def app(n, v): bits.extend(((v >> i) & 1) for i in reversed(range(n)))
    app(2, 1); app(4, 1); app(12, 255); app(12, t); app(10, rf); app(10, rp); app(30, (1 << 30) - 1)
    st = bits[:]
    def nb():
        b = st[62] ^ st[51] ^ st[38] ^ st[23] ^ st[13] ^ st[0]
        st.pop(0); st.append(b); return b
    for _ in range(160): nb()
    def nxt():
        while True:
            b = nb()
            if b: return nb()
            nb()
    out = []
    while len(out) < (rf + rp) * t:
        v = 0
        for _ in range(255): v = (v << 1) | nxt()
        if v < P: out.append(v)
    return out

def poseidon(inputs, tag=None):
    a = len(inputs); t = a + 1; rf, rp = 8, RP_OF_T[t]
    if t not in _CONSTS:
        _CONSTS[t] = (_grain(t, rf, rp), [[pow(i + (t + j), P - 2, P) for j in range(t)] for i in range(t)])
    rc, m = _CONSTS[t]
    s = [((1 << a) - 1) if tag is None else tag] + [x % P for x in inputs]
    k = 0
    for r in range(rf + rp):
        s = [(x + rc[k + i]) % P for i, x in enumerate(s)]; k += t
        if r < rf // 2 or r >= rf // 2 + rp: s = [pow(x, 5, P) for x in s]
        else: s[0] = pow(s[0], 5, P)
        s = [sum(m[i][j] * s[j] for j in range(t)) % P for i in range(t)]
    return s[1]

TAG = 1 << 40          # HashType::Custom(CType::Arbitrary(1))

def sha_node(l, r):    # Sha256Function::hash2 over two 32-byte domain values
    d = bytearray(hashlib.sha256(l + r).digest()); d[31] &= 0x3f
    return bytes(d)

# ---- parameters (constants.rs) ----
SIZES = {0: 6, 1: 18, 2: 24, 3: 30, 4: 31}          # log2 nodes of RegisteredUpdateProof 0..4
SHAPES = {6: (8, 0, 0), 18: (8, 0, 0), 24: (8, 0, 0), 30: (8, 8, 0), 31: (8, 8, 2)}

def params(rp):
    cbl = SIZES[rp]; n = 1 << cbl
    parts = 1 if n <= 2**8 else 2 if n <= 2**10 else 4 if n <= 2**19 else 16
    hs = [1] * 6 if n <= 2**10 else [7, 8, 9, 10, 11, 12]
    base, sub, top = SHAPES[cbl]
    rest = cbl - (sub.bit_length() - 1 if sub else 0) - (top.bit_length() - 1 if top else 0)
    arities = [8] * (rest // 3) + ([sub] if sub else []) + ([top] if top else [])
    return dict(cbl=cbl, parts=parts, pbl=parts.bit_length() - 1, ch=10 if n <= 2**19 else 86,
                apex=8 if n <= 2**8 else 128, h=hs[3], h_index=hs.index(hs[3]), arities=arities)

def challenges(p, comm_r_new, k):
    b = p['cbl'] - p['pbl']; q = 254 // b
    m = -(-p['ch'] // q); di = k * m; out = []; i = 0
    while len(out) < p['ch']:
        if i == 0: d = poseidon([comm_r_new, di], TAG)
        out.append(((d >> (i * b)) & ((1 << b) - 1)) | (k << b)); i += 1
        if i == q: i = 0; di += 1
    return out

def le(h): return int.from_bytes(bytes.fromhex(h), 'little')

# ---- bincode ----
class Rd:
    def __init__(s, b): s.b = b; s.o = 0
    def take(s, n):
        if s.o + n > len(s.b): raise ValueError('truncated at byte %d' % s.o)
        v = s.b[s.o:s.o + n]; s.o += n; return v
    def u64(s): return int.from_bytes(s.take(8), 'little')
    def u32(s): return int.from_bytes(s.take(4), 'little')
    def fr(s):
        v = int.from_bytes(s.take(32), 'little')
        if v >= P: raise ValueError('not a field element at byte %d' % (s.o - 32))
        return v

def rd_path(r):
    levels = []
    for _ in range(r.u64()):
        sibs = [r.fr() for _ in range(r.u64())]
        levels.append((sibs, r.u64()))
    return levels

def rd_merkle(r):
    v = r.u32()
    if v == 0:
        root = r.fr(); leaf = r.fr(); path = rd_path(r)
    else:
        path = [lv for _ in range(v + 1) for lv in rd_path(r)]
        root = r.fr(); leaf = r.fr()
    return dict(variant=v, root=root, leaf=leaf, path=path)

def rd_partition(b):
    r = Rd(b)
    comm_c = r.fr()
    apex = [r.fr() for _ in range(r.u64())]
    chs = [dict(r_old=rd_merkle(r), d_new=rd_merkle(r), r_new=rd_merkle(r)) for _ in range(r.u64())]
    if r.o != len(b): raise ValueError('%d trailing bytes' % (len(b) - r.o))
    return dict(comm_c=comm_c, apex=apex, ch=chs)

def path_index(path):
    idx = 0; shift = 0
    for sibs, i in path:
        idx |= i << shift; shift += (len(sibs) + 1).bit_length() - 1
    return idx

def poseidon_root(leaf, path):
    cur = leaf
    for sibs, i in path:
        pre = sibs[:i] + [cur] + sibs[i:]
        cur = poseidon(pre)
    return cur

def sha_nodes(leaf, path):   # every node of the tree D path, from the leaf up
    cur = leaf.to_bytes(32, 'little'); out = [cur]
    for sibs, i in path:
        s = sibs[0].to_bytes(32, 'little')
        cur = sha_node(s, cur) if i else sha_node(cur, s); out.append(cur)
    return out

def check_partition(p, part, k, cro, cdn, crn):
    assert len(part['apex']) == p['apex'], 'apex_leafs count'
    assert len(part['ch']) == p['ch'], 'challenge count'
    root_old = part['ch'][0]['r_old']['root']; root_new = part['ch'][0]['r_new']['root']
    assert poseidon([part['comm_c'], root_old]) == cro, 'comm_r_old'
    assert poseidon([part['comm_c'], root_new]) == crn, 'comm_r_new'
    phi = poseidon([cdn, cro], TAG)
    row = [a.to_bytes(32, 'little') for a in part['apex']]
    while len(row) > 1: row = [sha_node(row[2 * i], row[2 * i + 1]) for i in range(len(row) // 2)]
    apex_h = p['cbl'] - p['pbl'] - (p['apex'].bit_length() - 1)
    for i, (c, q) in enumerate(zip(challenges(p, crn, k), part['ch'])):
        w = 'partition %d challenge %d' % (k, i)
        for t in ('r_old', 'd_new', 'r_new'): assert path_index(q[t]['path']) == c, w + ': ' + t + ' index'
        assert q['r_old']['root'] == root_old and q['r_new']['root'] == root_new, w + ': roots'
        assert poseidon_root(q['r_old']['leaf'], q['r_old']['path']) == root_old, w + ': r_old path'
        assert poseidon_root(q['r_new']['leaf'], q['r_new']['path']) == root_new, w + ': r_new path'
        nodes = sha_nodes(q['d_new']['leaf'], q['d_new']['path'])
        assert int.from_bytes(nodes[-1], 'little') == cdn == q['d_new']['root'], w + ': d_new path'
        rho = poseidon([phi, c >> (p['cbl'] - p['h'])], TAG)
        assert (q['r_old']['leaf'] + q['d_new']['leaf'] * rho) % P == q['r_new']['leaf'], w + ': encoding'
        assert nodes[apex_h] == part['apex'][(c >> apex_h) % p['apex']].to_bytes(32, 'little'), w + ': apex leaf'
        assert nodes[apex_h + p['apex'].bit_length() - 1] == row[0], w + ': apex root'
    return len(part['ch'])

def main():
    cmd = sys.argv[1]
    if cmd == 'inputs':
        rp = int(sys.argv[2]); p = params(rp)
        cs = [str(le(h)) for h in sys.argv[3:6]]
        print(json.dumps([[str(k | (1 << p['h_index']) << p['pbl'])] + cs for k in range(p['parts'])]))
    elif cmd == 'check':
        blobs = [base64.b64decode(s) for s in json.load(open(sys.argv[2]))]
        rp = int(sys.argv[3]); p = params(rp)
        cro, cdn, crn = (le(h) for h in sys.argv[4:7])
        assert len(blobs) == p['parts'], 'partition count'
        n = sum(check_partition(p, rd_partition(b), k, cro, cdn, crn) for k, b in enumerate(blobs))
        print('%d partition(s), %d challenges verified' % (len(blobs), n))
    elif cmd == 'tamper':
        blobs = [bytearray(base64.b64decode(s)) for s in json.load(open(sys.argv[2]))]
        d = sys.argv[3]; b = blobs[0]
        r = Rd(bytes(b)); r.fr(); n_apex = r.u64(); r.take(32 * n_apex); r.u64()
        first = r.o; rd_merkle(r); rd_merkle(r); rd_merkle(r); size = r.o - first   # one challenge proof
        def save(name, parts):
            json.dump([base64.b64encode(bytes(x)).decode() for x in parts], open(os.path.join(d, name + '.json'), 'w'))
        x = bytearray(b); x[first + 3 * size + 4 + 32] ^= 1; save('leaf_r_old', [x])        # challenge 3's leaf_r_old (Single: root, leaf)
        r = Rd(bytes(b)); r.o = first + 7 * size; rd_merkle(r); at = r.o                    # challenge 7's proof_d_new
        x = bytearray(b); x[at + 4 + 64 + 8 + 8] ^= 1; save('sib_d', [x])                   # its level-0 sibling
        x = bytearray(b); x[0] ^= 1; save('comm_c', [x])
        save('trunc', [b[:len(b) - 1]])
        save('two', [b, b])
        open(os.path.join(d, 'b64.json'), 'w').write('["!!not base64!!"]')
    else:
        sys.exit(__doc__)

if __name__ == '__main__':
    try:
        main()
    except (AssertionError, ValueError) as e:
        print('INVALID:', e); sys.exit(1)
