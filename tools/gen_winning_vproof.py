#!/usr/bin/env python3
"""Writes tests/fixtures/filecoin/winning.vproof: a WinningPoSt vanilla proof for a reduced test
circuit (2 slots), made from the golden WindowPoSt one (tests/fixtures/filecoin/post.vproof, real
32 GiB data): the same sector (id, comm_r, comm_c, comm_r_last) with its first K challenges'
Merkle proofs (K = 2, or the argument, at most 10).

A WinningPoSt vanilla proof is ONE proof of the challenged sector with one challenge per circuit
slot (66 in Filecoin), challenge n at challenge index n; filecoin-proofs unrolls it so that slot k
holds challenge k, and slot k's public challenge is index k (ApiVersion 1.0.0, which every
WinningPoSt proof uses). The golden sector at randomness 0 opened challenge indices 0..9, so its
first K proofs make a valid WinningPoSt vanilla proof for a K-slot test circuit
(`--circuit winning-post-32g --sectors K`). The full 66-slot circuit needs 66 challenges of one
sector, which the golden file does not have.

    python3 tools/gen_winning_vproof.py [K]     (from the repository root)

Layout (CIRCUITS.md section 4, src/filecoin/post.h): u64 sector_id | 32 B comm_r | u64 sector count
| u64 challenge count | per challenge one Merkle proof | 32 B comm_c | 32 B comm_r_last.
"""
import os, struct, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
src = os.path.join(root, 'tests', 'fixtures', 'filecoin', 'post.vproof')
dst = os.path.join(root, 'tests', 'fixtures', 'filecoin', 'winning.vproof')
k = int(sys.argv[1]) if len(sys.argv) > 1 else 2
d = open(src, 'rb').read()
head, tail = 48, 64                      # sector_id + comm_r + sector count | comm_c + comm_r_last
(nch,) = struct.unpack_from('<Q', d, head)
body = len(d) - head - 8 - tail
if nch != 10 or body % nch:
    sys.exit('unexpected golden layout: %d challenges, %d bytes of proofs' % (nch, body))
if not 1 <= k <= nch:
    sys.exit('K must be 1..%d' % nch)
one = body // nch                        # every 32 GiB challenge proof has the same size
out = d[:head] + struct.pack('<Q', k) + d[head + 8:head + 8 + k * one] + d[-tail:]
open(dst, 'wb').write(out)
print('%s: %d bytes (%d of %d challenge proofs, %d bytes each)' % (dst, len(out), k, nch, one))
