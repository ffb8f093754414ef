#!/usr/bin/env python3
"""Writes tests/fixtures/filecoin/winning.vproof: a WinningPoSt-shaped (one challenge per sector)
32 GiB vanilla proof made from the golden WindowPoSt one (tests/fixtures/filecoin/post.vproof,
real data): the same sector (id, comm_r, comm_c, comm_r_last) with only its first challenge's
Merkle proof. With ApiVersion 1.2 a sector's challenge n has challenge index n whatever the
sector's position (rust-fil-proofs storage-proofs-post fallback/utils.rs get_challenge_index), so
with randomness 0 the one challenge of every WinningPoSt sector slot is the golden challenge 0
(leaf 707914199) and the file passes every pre-proving check at any slot; a WinningPoSt partition
(66 x 1) is this sector padded, as rust-fil-proofs pads.

    python3 tools/gen_winning_vproof.py     (from the repository root)

Layout (CIRCUITS.md section 4, src/filecoin/post.h): u64 sector_id | 32 B comm_r | u64 sector count
| u64 challenge count | per challenge one Merkle proof | 32 B comm_c | 32 B comm_r_last.
"""
import os, struct, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
src = os.path.join(root, 'tests', 'fixtures', 'filecoin', 'post.vproof')
dst = os.path.join(root, 'tests', 'fixtures', 'filecoin', 'winning.vproof')
d = open(src, 'rb').read()
head, tail = 48, 64                      # sector_id + comm_r + sector count | comm_c + comm_r_last
(nch,) = struct.unpack_from('<Q', d, head)
body = len(d) - head - 8 - tail
if nch != 10 or body % nch:
    sys.exit('unexpected golden layout: %d challenges, %d bytes of proofs' % (nch, body))
one = body // nch                        # every 32 GiB challenge proof has the same size
out = d[:head] + struct.pack('<Q', 1) + d[head + 8:head + 8 + one] + d[-tail:]
open(dst, 'wb').write(out)
print('%s: %d bytes (1 of %d challenge proofs, %d bytes each)' % (dst, len(out), nch, one))
