#!/usr/bin/env python3
"""The public inputs of every partition of an interactive PoRep (V1, V1_1: RegisteredSealProof 0..9)
from the public data alone, independently of cuzk (an oracle for tests/porep/run.sh and the daemon
test): replica_id = SHA-256(prover_id | u64 BE sector_id | ticket | comm_d | porep_id) with byte 31
&= 0x3f; prover_id = the LEB128 payload of the ID address f0<miner>; challenge j = challenges * k + i
of partition k: LE integer of SHA-256(replica_id | seed | u32 LE j) mod (nodes - 1) + 1; its 6 DRG
parents (BucketGraph, ChaCha8) and 8 expander parents (Feistel, BLAKE2b); the inputs of a partition:
replica_id, comm_d, comm_r, then per challenge c: c, its 14 parents, c, c, c (../shared/filecoin
POREP.md sections 1, 2, 4; written from the rust-fil-proofs sources, not from cuzk's C).

  porep_public.py REG_ID MINER SECTOR TICKET_HEX SEED_HEX COMM_R_HEX COMM_D_HEX > inputs.json
prints a JSON array (one per partition) of arrays of decimal strings, as `cuzk verify-seal
--print-inputs` does. Small sectors only (pure Python).
"""
import hashlib
import json
import math
import struct
import sys

SIZES = [2048, 8 << 20, 512 << 20, 32 << 30, 64 << 30]


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF


def chacha8_block(key, counter):
    st = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + key + [counter & 0xFFFFFFFF, counter >> 32, 0, 0]
    x = st[:]

    def qr(a, b, c, d):
        x[a] = (x[a] + x[b]) & 0xFFFFFFFF; x[d] = rotl(x[d] ^ x[a], 16)
        x[c] = (x[c] + x[d]) & 0xFFFFFFFF; x[b] = rotl(x[b] ^ x[c], 12)
        x[a] = (x[a] + x[b]) & 0xFFFFFFFF; x[d] = rotl(x[d] ^ x[a], 8)
        x[c] = (x[c] + x[d]) & 0xFFFFFFFF; x[b] = rotl(x[b] ^ x[c], 7)

    for _ in range(4):
        qr(0, 4, 8, 12); qr(1, 5, 9, 13); qr(2, 6, 10, 14); qr(3, 7, 11, 15)
        qr(0, 5, 10, 15); qr(1, 6, 11, 12); qr(2, 7, 8, 13); qr(3, 4, 9, 14)
    return [(x[i] + st[i]) & 0xFFFFFFFF for i in range(16)]


class Rng:
    def __init__(self, seed32):
        self.key, self.buf, self.ctr = list(struct.unpack("<8I", seed32)), [], 0

    def u64(self):
        w = []
        for _ in range(2):
            if not self.buf:
                self.buf = chacha8_block(self.key, self.ctr)
                self.ctr += 1
            w.append(self.buf.pop(0))
        return w[1] << 32 | w[0]


def drg(node, seed28, v1_0):
    if node < 2:
        return [0] * 6
    rng = Rng(seed28 + struct.pack("<I", node))
    meta = node * 5
    nb = math.ceil(math.log2(meta))
    out = [0] * 6
    for i in (range(0, 5) if v1_0 else range(1, 6)):
        bucket = rng.u64() % nb + 1
        hi = min(meta, 1 << bucket)
        lo = max(2, hi >> 1)
        p = (meta - (lo + rng.u64() % (hi - lo + 1))) // 5
        out[i] = node - 1 if p == node else p
    out[5 if v1_0 else 0] = node - 1
    return out


def expander(node, nodes, keys, v1_0):
    n = nodes * 8
    side = 1
    while 4 ** side < n:
        side += 1
    mask = (1 << side) - 1

    def perm(ix):
        left, right = ix >> side & mask, ix & mask
        for k in keys:
            h = hashlib.blake2b(struct.pack(">QQ", right, k)).digest()
            left, right = right, left ^ (struct.unpack(">Q", h[:8])[0] & mask)
        return left << side | right

    res = []
    for i in range(8):
        u = perm(node * 8 + i)
        while u >= n:
            u = perm(u)
        if v1_0:
            u &= 0xFFFFFFFF
        res.append(u // 8)
    return res


def leb128(v):
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def main():
    reg, miner, sector = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    ticket, seed, comm_r, comm_d = (bytes.fromhex(a) for a in sys.argv[4:8])
    if reg > 9:
        raise SystemExit("porep_public.py: interactive PoRep only (0..9)")
    size = SIZES[reg % 5]
    nodes = size // 32
    v1_0 = reg < 5
    big = size >= 32 << 30
    partitions, challenges = (10, 18) if big else (1, 2)
    porep_id = struct.pack("<QQ", reg, 0) + bytes(16)
    prover = leb128(miner).ljust(32, b"\0")
    rid = bytearray(hashlib.sha256(prover + struct.pack(">Q", sector) + ticket + comm_d + porep_id).digest())
    rid[31] &= 0x3F
    rid = bytes(rid)
    seed28 = hashlib.sha256(b"Filecoin_DRSample" + porep_id).digest()[:28]
    keys = list(struct.unpack("<3Q", hashlib.sha256(b"Filecoin_Feistel" + porep_id).digest()[:24]))
    le = lambda b: str(int.from_bytes(b, "little"))
    out = []
    for k in range(partitions):
        ins = [le(rid), le(comm_d), le(comm_r)]
        for i in range(challenges):
            j = challenges * k + i
            c = int.from_bytes(hashlib.sha256(rid + seed + struct.pack("<I", j)).digest(), "little") % (nodes - 1) + 1
            ins += [str(c)] + [str(p) for p in drg(c, seed28, v1_0) + expander(c, nodes, keys, v1_0)] + [str(c)] * 3
        out.append(ins)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
