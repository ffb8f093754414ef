#!/usr/bin/env python3
"""Regenerates tests/fixtures/filecoin/model_counts.txt from the Filecoin counting model
(../shared/filecoin/model: cc.py, dens.py, post.py, dens_post.py, poseidon_ref.py,
neptune_circuit_witness.py), the independent oracle the circuit tests compare against.

    python3 tools/gen_filecoin_fixtures.py [MODEL_DIR]   (default ../shared/filecoin/model)

Lines: `<kind> <name> key value ...`. The tests need only this file, not the model.
"""
import hashlib, os, sys

here = os.path.dirname(os.path.abspath(__file__))
model = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith('--') else os.path.join(here, '..', '..', 'shared', 'filecoin', 'model')
if not os.path.isdir(model):
    model = '/work/shared/filecoin/model'
sys.path.insert(0, model)
import cc, dens, dens_post, poseidon_ref, neptune_circuit_witness as ncw  # noqa: E402

out = []
def line(*a): out.append(' '.join(str(x) for x in a))

# gadget costs (cc.py): constraints and aux per gadget, from a fresh CS
def gadget(name, f):
    cs = cc.CS(); base = f(cs)
    c0, a0 = base if base else (0, 0)
    line('gadget', name, 'constraints', cs.c - c0, 'aux', cs.aux - a0)
def g_compress(cs):
    blk = [cc.alloc_bit(cs) for _ in range(512)]; b = (cs.c, cs.aux)
    cc.compress(cs, blk, [cc.u32_const(v) for v in cc.IV]); return b
def g_sha512(cs):
    blk = [cc.alloc_bit(cs) for _ in range(512)]; b = (cs.c, cs.aux); cc.sha256(cs, blk); return b
def g_compress_var(cs):
    blk = [cc.alloc_bit(cs) for _ in range(512)]
    cur = [[cc.alloc_bit(cs) for _ in range(32)] for _ in range(8)]; b = (cs.c, cs.aux)
    cc.compress(cs, blk, cur); return b
def g_sha_len(n):
    def f(cs):
        blk = [cc.alloc_bit(cs) for _ in range(n)]; b = (cs.c, cs.aux); cc.sha256(cs, blk); return b
    return f
gadget('sha256_compress_const_iv', g_compress)
gadget('sha256_compress_var', g_compress_var)
gadget('sha256_512', g_sha512)
for n in (0, 8, 440, 448, 1024):
    gadget('sha256_len_%d' % n, g_sha_len(n))
for a in (2, 4, 8, 11):
    gadget('poseidon_%d' % a, lambda cs, a=a: cc.poseidon(cs, a))
def g_insert(a):
    def f(cs):
        return cc.insert(cs, a)
    return f
for a in (2, 4, 8):
    gadget('insert_%d' % a, g_insert(a))
def g_tobits(cs): cc.to_bits_le(cs)
gadget('to_bits_le', g_tobits)

# SnapDeals (EmptySectorUpdateCircuit, one partition): counts of snap.py at every allowed size
# (first in the file; `--only-snap` prints these lines alone, ~4 minutes: the 32 and 64 GiB circuits)
import snap
snap_lines = []
for name, nodes in [("1k", 2**5), ("2k", 2**6), ("4k", 2**7), ("8k", 2**8), ("16k", 2**9), ("32k", 2**10),
                    ("8m", 2**18), ("16m", 2**19), ("512m", 2**24), ("32g", 2**30), ("64g", 2**31)]:
    cs = snap.snap_circuit(nodes)
    line('snap', name, 'inputs', cs.inp, 'aux', cs.aux, 'constraints', cs.c, 'partitions', snap.partition_count(nodes))
    snap_lines.append(out[-1])
if '--only-snap' in sys.argv:
    print('\n'.join(snap_lines))
    sys.exit(0)

# Poseidon circuit witness (neptune's optimised form): hash of the aux values, per arity
for a in (2, 4, 8, 11):
    xs = list(range(a))
    h, wit = ncw.circuit_hash(xs)
    assert h == poseidon_ref.poseidon(xs)
    m = hashlib.sha256()
    for v in wit: m.update(v.to_bytes(32, 'little'))
    line('poseidon_witness', a, 'aux', len(wit), 'sha256', m.hexdigest(), 'hash', '%064x' % h)

# PoSt circuits: counts (cc-based post.py) and densities (dens_post.py)
import post
for name, leaves, shape, wsec in [("2k", 2**6, (8, 0, 0), 2), ("8m", 2**18, (8, 0, 0), 2), ("512m", 2**24, (8, 0, 0), 2),
                                  ("32g", 2**30, (8, 8, 0), 2349), ("64g", 2**31, (8, 8, 2), 2300)]:
    for kind, sec, ch in (("window", wsec, 10), ("winning", 66, 1)):
        if sec <= 66:
            cs, _ = dens_post.post(leaves, sec, ch, *shape); a, b = cs.counts()
            line('post', kind + '-' + name, 'sectors', sec, 'inputs', cs.inp, 'aux', cs.aux, 'constraints', cs.c, 'a_aux', a, 'b_aux', b)
        else:
            cs, m = dens_post.post(leaves, 2, 10, *shape)
            (x1, c1, a1, b1), (x2, c2, a2, b2) = m
            n = sec
            line('post', kind + '-' + name, 'sectors', n, 'inputs', 1 + n * 11, 'aux', x1 + (n - 1) * (x2 - x1),
                 'constraints', c1 + (n - 1) * (c2 - c1), 'a_aux', a1 + (n - 1) * (a2 - a1), 'b_aux', b1 + (n - 1) * (b2 - b1))
        # the reduced test circuit: 1 sector
        cs, _ = dens_post.post(leaves, 1, ch, *shape); a, b = cs.counts()
        line('post', kind + '-' + name + '-1', 'sectors', 1, 'inputs', cs.inp, 'aux', cs.aux, 'constraints', cs.c, 'a_aux', a, 'b_aux', b)

# PoRep (SDR StackedCircuit, one partition): counts and densities (dens.py) of the small sizes;
# 32 GiB from one and two challenges, extrapolated to 18 (every challenge has the same shape)
for name, nodes, layers, ch, shape in [("2k", 2**6, 2, 2, (8, 0, 0)), ("8m", 2**18, 2, 2, (8, 0, 0))]:
    cs, _ = dens.porep(nodes, layers, ch, *shape); a, b = cs.counts()
    line('porep', name, 'inputs', cs.inp, 'aux', cs.aux, 'constraints', cs.c, 'a_aux', a, 'b_aux', b)
if os.environ.get('POREP_32G'):
    cs, m = dens.porep(2**30, 11, 2, 8, 8, 0)
    (x1, c1, a1, b1), (x2, c2, a2, b2) = m
    hx, hc = 2 * x1 - x2, 2 * c1 - c2          # the header: one challenge less than challenge 1
    line('porep', '32g', 'inputs', 1 + 3 + 18 * 18, 'aux', hx + 18 * (x2 - x1), 'constraints', hc + 18 * (c2 - c1),
         'a_aux', a1 + 17 * (a2 - a1), 'b_aux', b1 + 17 * (b2 - b1))

path = os.path.join(here, '..', 'tests', 'fixtures', 'filecoin', 'model_counts.txt')
with open(path, 'w') as f:
    f.write('# generated by tools/gen_filecoin_fixtures.py from the Filecoin counting model; do not edit\n')
    f.write('\n'.join(out) + '\n')
print('wrote', path, len(out), 'lines')
