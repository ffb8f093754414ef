#!/usr/bin/env python3
"""Copies a circom .r1cs, changing one coefficient: the ONE wire's (wire 0) in the first constraint
that has a ONE term whose coefficient can grow by one and stay canonical. ONE is 1 in every
witness, so that constraint no longer holds for a witness that satisfied it (tests/porep/run.sh).
   tamper_r1cs.py in.r1cs out.r1cs"""
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
data = bytearray(open(src, 'rb').read())
assert data[:4] == b'r1cs', 'not an r1cs file'
nsec = struct.unpack_from('<I', data, 8)[0]
off, secs = 12, {}
for _ in range(nsec):
    sid, size = struct.unpack_from('<IQ', data, off)
    off += 12
    secs[sid] = off
    off += size
h = secs[1]
n8 = struct.unpack_from('<I', data, h)[0]
ncons = struct.unpack_from('<I', data, h + 4 + n8 + 16 + 8)[0]   # n8, prime, 4 u32 counts, u64 labels
p = secs[2]
for j in range(ncons):
    for m in range(3):
        nt = struct.unpack_from('<I', data, p)[0]
        p += 4
        for _ in range(nt):
            wire = struct.unpack_from('<I', data, p)[0]
            c = p + 4
            if wire == 0 and data[c + n8 - 1] < 0x70 and data[c] != 0xff:   # + 1 stays < r
                data[c] += 1
                open(dst, 'wb').write(data)
                print(f"constraint {j}, matrix {'ABC'[m]}: the ONE term's coefficient + 1")
                sys.exit(0)
            p += 4 + n8
sys.exit('no ONE term found')
