#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets that need a header or a protobuf envelope:

  tools/fuzz/corpus/post/    fuzz_post: parameter byte, sector_index, 32 bytes of randomness, then a
                             real vanilla proof (tests/fixtures/filecoin/post.vproof, winning.vproof)
  tools/fuzz/corpus/snap/    fuzz_snap: size byte, partition, the three commitments, then a 2 KiB
                             update's partition proofs made by cuzk (tests/fixtures/filecoin/
                             snap_2k.vproofs.json: Curio's JSON form, and one partition's bincode)
  tools/fuzz/corpus/daemon/  fuzz_daemon: method byte, then a cuzk.v1 request message (protobuf wire
                             format, written here by hand from src/daemon/proving.proto) carrying
                             those vanilla proofs, the 2 KiB C1 output, the multiplier witness

The input layouts are documented at the top of tools/fuzz/fuzz_post.c and fuzz_daemon.c. The C1
seed tools/fuzz/corpus/parsers/porep_c1_2k.json is a real sealed 2 KiB sector's C1 output, made by
    build/cuzk make-c1 --registered-proof 5 --miner-id 1000 --sector-id 7 \\
        --ticket 5a5a...5a1a (31 x 5a, then 1a) --seed 0101...01 (32 x 01) porep_c1_2k.json
(the public data of tests/porep/fixture.sh).

    python3 tools/fuzz/make_seeds.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, '..', '..')
FIX = os.path.join(ROOT, 'tests', 'fixtures', 'filecoin')


def read(*p):
    with open(os.path.join(*p), 'rb') as f:
        return f.read()


def write(sub, name, data):
    d = os.path.join(HERE, 'corpus', sub)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


# ---- protobuf wire format: varint (type 0) and length-delimited (type 2) fields only ----------
def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def fv(num, v):                     # a varint field (uint64, uint32, enum)
    return varint(num << 3) + varint(v)


def fb(num, b):                     # a bytes / string / message field
    if isinstance(b, str):
        b = b.encode()
    return varint(num << 3 | 2) + varint(len(b)) + b


# SubmitProofRequest field numbers
REQUEST_ID, PROOF_KIND, SECTOR_SIZE, REGISTERED_PROOF, PRIORITY = 1, 2, 3, 4, 5
VANILLA_PROOF, VANILLA_PROOFS, SECTOR_NUMBER, MINER_ID, RANDOMNESS, PARTITION = 10, 11, 20, 21, 22, 23
COMM_R_OLD, COMM_R_NEW, COMM_D_NEW, CIRCUIT_ID, WITNESS = 30, 31, 32, 100, 101
POREP, SNAP, WPOST, WINNING, GENERIC = 1, 2, 3, 4, 100
# fuzz_daemon's method byte
M_SUBMIT, M_PROVE, M_AWAIT, M_CANCEL, M_STATUS, M_METRICS, M_PRELOAD, M_EVICT = range(8)


def main():
    post = read(FIX, 'post.vproof')          # one 32 GiB WindowPoSt sector, 10 challenges, randomness 0
    winning = read(FIX, 'winning.vproof')    # the same sector, its first 2 challenges
    zero = bytes(32)

    # fuzz_post: byte 0 = kind | size << 1 | count << 4 | api << 6 (fuzz_post.c)
    def hdr(kind, size, count, api=0, sector_index=0):
        return bytes([kind | size << 1 | count << 4 | api << 6, sector_index]) + zero
    write('post', 'window-32g-1sector.bin', hdr(1, 3, 1) + post)
    write('post', 'window-32g-real.bin', hdr(1, 3, 0, 3) + post)
    write('post', 'winning-32g-2slots.bin', hdr(0, 3, 2) + winning)
    write('post', 'winning-32g-10slots.bin', hdr(0, 3, 3) + post)

    # fuzz_snap: byte 0 = size | 0x80 for Curio's JSON form, byte 1 = partition, the three
    # commitments, then the proof bytes (fuzz_snap.c); a 2 KiB update made by cuzk
    import base64, json
    snap_pub = json.loads(read(FIX, 'snap_2k.json'))
    snap_json = read(FIX, 'snap_2k.vproofs.json')
    comms = b''.join(bytes.fromhex(snap_pub[k]) for k in ('comm_r_old', 'comm_d_new', 'comm_r_new'))
    write('snap', '2k-json.bin', bytes([0x80, 0]) + comms + snap_json)
    write('snap', '2k-bincode.bin', bytes([0, 0]) + comms + base64.b64decode(json.loads(snap_json)[0]))

    c1 = read(HERE, 'corpus', 'parsers', 'porep_c1_2k.json')
    wtns = read(HERE, 'corpus', 'parsers', 'multiplier.wtns')
    # go-fil-commcid: CIDv1 | fil-commitment-sealed 0xf102 | poseidon-bls12_381-a2-fc1 0xb401 | 32;
    # fil-commitment-unsealed 0xf101 | sha2-256-trunc254-padded 0x1012 | 32 (cuzk_commitment_from_bytes)
    SEALED, UNSEALED = bytes.fromhex('0182e20381e80220'), bytes.fromhex('0181e203922020')

    def snap_req(cid):
        c = {k: bytes.fromhex(snap_pub[k]) for k in ('comm_r_old', 'comm_d_new', 'comm_r_new')}
        if cid:
            c = {'comm_r_old': SEALED + c['comm_r_old'], 'comm_r_new': SEALED + c['comm_r_new'],
                 'comm_d_new': UNSEALED + c['comm_d_new']}
        return (fb(REQUEST_ID, 'snap') + fv(PROOF_KIND, SNAP) + fv(SECTOR_SIZE, 2048) + fv(REGISTERED_PROOF, 0) +
                fb(VANILLA_PROOFS, base64.b64decode(json.loads(snap_json)[0])) + fb(COMM_R_OLD, c['comm_r_old']) +
                fb(COMM_R_NEW, c['comm_r_new']) + fb(COMM_D_NEW, c['comm_d_new']))
    wpost = (fb(REQUEST_ID, 'wpost-1') + fv(PROOF_KIND, WPOST) + fv(SECTOR_SIZE, 32 << 30) +
             fv(REGISTERED_PROOF, 13) + fv(PRIORITY, 3) + fb(VANILLA_PROOFS, post) + fb(RANDOMNESS, zero) +
             fv(PARTITION, 0))
    seeds = {
        'submit-wpost-32g': (M_SUBMIT, wpost),
        'submit-wpost-32g-2': (M_SUBMIT, fv(PROOF_KIND, WPOST) + fv(REGISTERED_PROOF, 8) +
                               fb(VANILLA_PROOFS, post) + fb(VANILLA_PROOFS, post) + fb(RANDOMNESS, zero)),
        'submit-winning-32g': (M_SUBMIT, fv(PROOF_KIND, WINNING) + fv(REGISTERED_PROOF, 3) +
                               fb(VANILLA_PROOFS, winning) + fb(RANDOMNESS, zero)),
        'submit-porep-2k': (M_SUBMIT, fb(REQUEST_ID, 'porep') + fv(PROOF_KIND, POREP) + fv(SECTOR_SIZE, 2048) +
                            fv(REGISTERED_PROOF, 5) + fb(VANILLA_PROOF, c1) + fv(SECTOR_NUMBER, 7) +
                            fv(MINER_ID, 1000)),
        'submit-generic': (M_SUBMIT, fv(PROOF_KIND, GENERIC) + fb(CIRCUIT_ID, 'multiplier') + fb(WITNESS, wtns)),
        'submit-snap': (M_SUBMIT, fv(PROOF_KIND, SNAP) + fv(REGISTERED_PROOF, 3) + fb(COMM_R_OLD, zero)),
        # a 2 KiB update as Curio sends it: its partition proof, the commitments as raw bytes or CIDs
        'submit-snap-2k': (M_SUBMIT, snap_req(False)),
        'submit-snap-2k-cid': (M_SUBMIT, snap_req(True)),
        'prove-wpost-32g': (M_PROVE, fb(1, wpost)),
        'await': (M_AWAIT, fb(1, 'job-1') + fv(2, 1000)),
        'cancel': (M_CANCEL, fb(1, 'job-1')),
        'status': (M_STATUS, b''),
        'metrics': (M_METRICS, b''),
        'preload': (M_PRELOAD, fb(1, 'multiplier')),
        'evict': (M_EVICT, fb(1, 'wpost-32g')),
    }
    for name, (m, body) in seeds.items():
        write('daemon', name + '.bin', bytes([m]) + body)


if __name__ == '__main__':
    main()
