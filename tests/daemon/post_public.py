#!/usr/bin/env python3
"""The public inputs of a FallbackPoSt partition from the public data alone, independently of cuzk
(an oracle for tests/daemon/run.sh): per sector slot comm_r, then per challenge the challenged
leaf index, leaf = u64_le(SHA-256(randomness | u64_le(sector_id) | u64_le(challenge_index))[0:8])
mod nodes (CIRCUITS.md section 4); challenge_index = n (ApiVersion 1.2) or
slot * challenges + n (1.0); slots past the real sectors repeat the last one (rust-fil-proofs pads).

  post_public.py POSTPUB_JSON SLOTS CHALLENGES API(10|12) SECTOR_SIZE [whole] > public.json

whole: WinningPoSt from rust-fil-proofs' single vanilla proof of SLOTS challenges: slot k is the
sector's challenge k (challenge index k).

POSTPUB_JSON: {"Randomness": base64, "ChallengedSectors": [{"SectorNumber", "SealedCID"}]}
(tests/fixtures/filecoin/postpub.json); comm_r is the SealedCID's last 32 bytes (little-endian Fr).
"""
import base64
import hashlib
import json
import sys


def cid_bytes(cid):
    if not cid.startswith("b"):
        raise SystemExit("post_public.py: only base32 ('b') CIDs")
    s = cid[1:].upper()
    return base64.b32decode(s + "=" * (-len(s) % 8))


def main():
    pub = json.load(open(sys.argv[1]))
    slots, chal, api, size = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    rnd = base64.b64decode(pub["Randomness"])
    assert len(rnd) == 32
    nodes = size // 32
    secs = pub["ChallengedSectors"]
    whole = len(sys.argv) > 6 and sys.argv[6] == "whole"
    out = []
    for slot in range(slots):
        real = min(slot, len(secs) - 1)   # padding: the last real sector again, its own challenges
        s = secs[real]
        comm_r = cid_bytes(s["SealedCID"]["/"])[-32:]
        out.append(str(int.from_bytes(comm_r, "little")))
        for n in range(chal):
            idx = slot if whole else n if api >= 12 else real * chal + n
            h = hashlib.sha256(rnd + s["SectorNumber"].to_bytes(8, "little") + idx.to_bytes(8, "little")).digest()
            out.append(str(int.from_bytes(h[:8], "little") % nodes))
    json.dump(out, sys.stdout)


main()
