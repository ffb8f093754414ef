#!/usr/bin/env python3
"""Generate tests/fixtures/filecoin/porep_graph.txt: known answers for the porep_graph suite.

Run: python3 tools/gen_porep_graph_fixture.py [SHARED_POREP_DIR] > tests/fixtures/filecoin/porep_graph.txt
SHARED_POREP_DIR (default /work/shared/filecoin/porep) holds the project's independent Python
oracles sdr_graph_check.py, sdr_labels_check.py and parent_cache.json (POREP.md sections 2-4).
This script imports them and refuses to write anything unless they reproduce their upstream
checks (the 2 KiB parent-cache digests of parent_cache.json and the four hard-coded last labels
of rust-fil-proofs create_label/multi.rs), then emits:

  cache R DIGEST                  parent_cache.json digest for registered proof R (0..9; the
                                  manifest entry is matched by recomputing its file name)
  parents R NODE P0 .. P13        the 14 parents of NODE in the graph of registered proof R
  labels NODES LAYERS PID V10 RID LAST ALL
                                  labels of a NODES-node graph (porep_id PID, api 1.0 if V10=1)
                                  for replica_id RID: the last label and SHA-256 of all labels
                                  (layer-major, 32 bytes each)
  ichal NODES CPP K RID SEED C..  interactive challenges of partition K (CPP per partition)
  schal NODES CPP K RID COMMR SEED C..
                                  synthetic challenges of partition K
  replica PROVER SECTOR TICKET COMMD PID RID
  blake2b OUTLEN KEY IN OUT       hashlib.blake2b (KEY/IN '-' when empty)
  chacha20 KEY NONCE OFFSET LEN OUT
                                  IETF ChaCha20 keystream bytes (the 'cryptography' package)
Hex values are lowercase byte strings; numbers decimal.

Independence: the expander parents at 32/64 GiB under api 1.0 apply graph.rs:377
(`transformed as u32 / 8`): (u mod 2^32) // 8 == (u // 8) mod 2^29, applied to the shared oracle's
u // 8. Challenges, replica_id, BLAKE2b and ChaCha20 are computed here with hashlib, Python
integers and the 'cryptography' package (challenges.rs, params.rs:1266), not with the C code's
algorithms.
"""
import contextlib, hashlib, io, json, os, random, struct, sys

SHARED = sys.argv[1] if len(sys.argv) > 1 else '/work/shared/filecoin/porep'
sys.path.insert(0, SHARED)
import sdr_graph_check as g  # noqa: E402

buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    import sdr_labels_check as lab  # noqa: E402  (runs its four known answers on import)
out = buf.getvalue()
if out.count('MATCH') != 4 or 'MISMATCH' in out:
    sys.exit('sdr_labels_check.py does not reproduce its known answers:\n' + out)

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms  # noqa: E402

SIZES = [2048, 8 << 20, 512 << 20, 32 << 30, 64 << 30]
rng = random.Random(20240607)


def rb(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def fr_bytes():  # 32 bytes with the top two bits clear (a domain value)
    b = bytearray(rb(32)); b[31] &= 0x3f; return bytes(b)


def params(reg):
    nodes = SIZES[reg % 5] // 32
    return nodes, g.porep_id(reg), reg < 5


def cache_name(nodes, pid):
    fseed = hashlib.sha256(b'Filecoin_Feistel' + pid).digest()
    ident = ('stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: %d; '
             'degree: 6; hasher: poseidon_hasher} }' % nodes)
    return 'v28-sdr-parent-' + hashlib.sha256(b'poseidon_hasher' + ident.encode() + fseed +
                                              struct.pack('<I', nodes)).hexdigest()


def parents(reg, node):
    nodes, pid, v10 = params(reg)
    seed28 = hashlib.sha256(b'Filecoin_DRSample' + pid).digest()[:28]
    keys = list(struct.unpack('<4Q', hashlib.sha256(b'Filecoin_Feistel' + pid).digest()))
    exp = g.exp_parents(node, nodes, keys)
    if v10:
        exp = [p % (1 << 29) for p in exp]  # `transformed as u32 / 8`
    return g.drg_parents(node, seed28, v10) + exp


def chacha20(key, nonce, offset, n):
    blk, skip = offset // 64, offset % 64
    c = Cipher(algorithms.ChaCha20(key, struct.pack('<I', blk) + nonce), mode=None).encryptor()
    return c.update(b'\0' * (skip + n))[skip:]


def to_challenge(b, nodes):
    return int.from_bytes(b, 'little') % (nodes - 1) + 1


def ichal(nodes, cpp, k, rid, seed):
    return [to_challenge(hashlib.sha256(rid + seed + struct.pack('<I', cpp * k + i)).digest(), nodes)
            for i in range(cpp)]


NONCE = b'synth-porep\0'


def synth_all(nodes, rid, commr, num):
    key = hashlib.blake2b(rid + commr, digest_size=32, key=b'filecoin.io|PoRep|1|Synthetic|1|Generation').digest()
    s = chacha20(key, NONCE, 0, 32 * num)
    return [to_challenge(s[32 * i:32 * i + 32], nodes) for i in range(num)]


def schal(nodes, cpp, k, rid, commr, seed, num=None):
    num = num or min(nodes, 1 << 18)
    key = hashlib.blake2b(rid + seed, digest_size=32, key=b'filecoin.io|PoRep|1|Synthetic|1|Selection').digest()
    s = chacha20(key, NONCE, 4 * cpp * k, 4 * cpp)
    idx = [struct.unpack('<I', s[4 * i:4 * i + 4])[0] % num for i in range(cpp)]
    key = hashlib.blake2b(rid + commr, digest_size=32, key=b'filecoin.io|PoRep|1|Synthetic|1|Generation').digest()
    return [to_challenge(chacha20(key, NONCE, 32 * i, 32), nodes) for i in idx]


def main():
    # the shared oracle's own check: the 2 KiB parent-cache digests
    man = json.load(open(os.path.join(SHARED, 'parent_cache.json')))
    for reg in (0, 5):
        name, dig, _ = g.cache_for(64, g.porep_id(reg), reg == 0)
        if man[name]['digest'] != dig:
            sys.exit('sdr_graph_check.py does not reproduce the 2 KiB digest of registered proof %d' % reg)
    # the synthetic derivation against rust-fil-proofs challenges.rs test_synth_challenges_against_hardcoded
    rid, commr = (55).to_bytes(32, 'little'), (101).to_bytes(32, 'little')
    assert synth_all(1 << 10, rid, commr, 21) == [178, 297, 869, 211, 875, 477, 94, 781, 124, 332, 856, 801, 176,
                                                 692, 429, 691, 290, 204, 986, 210, 973]
    assert schal(1 << 10, 10, 0, rid, commr, bytes([1] * 32), 21) == [176, 781, 801, 986, 290, 211, 692, 856, 986, 332]

    print('# Generated by tools/gen_porep_graph_fixture.py; do not edit. Formats: see the script.')
    for reg in range(10):
        nodes, pid, _ = params(reg)
        print('cache %d %s' % (reg, man[cache_name(nodes, pid)]['digest']))

    for reg in range(15):
        nodes = params(reg)[0]
        picks = [0, 1, 2, 3, 4, 5, nodes // 2, nodes - 1] + [rng.randrange(2, nodes) for _ in range(6)]
        if nodes > (1 << 29):  # nodes whose expander indexes exceed 2^32 (the api 1.0 truncation)
            picks += [nodes - 2, (1 << 29) + rng.randrange(0, 1 << 20), rng.randrange(1 << 29, nodes)]
        for v in picks:
            print('parents %d %d %s' % (reg, v, ' '.join(map(str, parents(reg, v)))))

    for nodes, pid, v10, _ in lab.cases:  # the four known answers (11 layers)
        last = lab.labels(nodes, 11, bytes([9] * 32), bytes(pid), v10)[-1]
        print('labels %d 11 %s %d %s %s -' % (nodes, bytes(pid).hex(), int(v10), bytes([9] * 32).hex(), last.hex()))
    for reg in (0, 5, 10):  # 2 KiB, 2 layers, random replica ids: every label through the digest
        nodes, pid, v10 = params(reg)
        rid = fr_bytes()
        # the shared labels() returns the last layer only; layer 1 alone is labels(.., 1, ..)
        l1 = lab.labels(nodes, 1, rid, pid, v10)
        l2 = lab.labels(nodes, 2, rid, pid, v10)
        allb = b''.join(l1) + b''.join(l2)
        print('labels %d 2 %s %d %s %s %s' % (nodes, pid.hex(), int(v10), rid.hex(), l2[-1].hex(),
                                              hashlib.sha256(allb).hexdigest()))

    for reg in (5, 6, 7, 8, 9):
        nodes = params(reg)[0]
        cpp, parts = (18, 10) if nodes >= (1 << 30) else (2, 1)
        for _ in range(2):
            rid, seed = fr_bytes(), rb(32)
            for k in range(parts):
                print('ichal %d %d %d %s %s %s' % (nodes, cpp, k, rid.hex(), seed.hex(),
                                                   ' '.join(map(str, ichal(nodes, cpp, k, rid, seed)))))
    for reg in (10, 11, 12, 13, 14):
        nodes = params(reg)[0]
        cpp, parts = (18, 10) if nodes >= (1 << 30) else (2, 1)
        for _ in range(2):
            rid, commr, seed = fr_bytes(), fr_bytes(), rb(32)
            for k in range(parts):
                print('schal %d %d %d %s %s %s %s' % (nodes, cpp, k, rid.hex(), commr.hex(), seed.hex(),
                                                      ' '.join(map(str, schal(nodes, cpp, k, rid, commr, seed)))))

    for reg in (0, 5, 8, 13):
        pid = g.porep_id(reg)
        prover = struct.pack('<Q', rng.getrandbits(40)) + b'\0' * 24
        sector = rng.getrandbits(64)
        ticket, commd = rb(32), fr_bytes()
        h = bytearray(hashlib.sha256(prover + struct.pack('>Q', sector) + ticket + commd + pid).digest())
        h[31] &= 0x3f
        print('replica %s %d %s %s %s %s' % (prover.hex(), sector, ticket.hex(), commd.hex(), pid.hex(), bytes(h).hex()))

    for outlen, klen, n in ((64, 0, 0), (64, 0, 16), (32, 42, 64), (32, 41, 64), (64, 64, 128), (20, 0, 129),
                            (64, 7, 255), (1, 0, 3), (33, 64, 256), (64, 0, 1000)):
        key, data = rb(klen), rb(n)
        print('blake2b %d %s %s %s' % (outlen, key.hex() or '-', data.hex() or '-',
                                       hashlib.blake2b(data, digest_size=outlen, key=key).hexdigest()))
    for off, n in ((0, 64), (32, 32), (60, 9), (4 * 180, 72), (32 * 262143, 32), (1000, 200)):
        key, nonce = rb(32), rb(12)
        print('chacha20 %s %s %d %d %s' % (key.hex(), nonce.hex(), off, n, chacha20(key, nonce, off, n).hex()))


if __name__ == '__main__':
    main()
