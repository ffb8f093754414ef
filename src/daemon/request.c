/* cuzkd's request decoding and checks (request.h): every request is checked at the wire level
 * for UTF-8 (pbvalid.c) and then unpacked by protobuf-c; a SubmitProofRequest is then checked
 * against the configuration before anything is queued. */
#include "request.h"

#include "pbvalid.h"

#include "cuzk/filecoin.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

void request_fail(cgrpc_reply *out, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->msg, sizeof out->msg, fmt, ap);
    va_end(ap);
    out->code = code;
}

ProtobufCMessage *request_decode(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len, cgrpc_reply *out) {
    char msg[300];
    if (pb_check_strings(d, req, len, msg, sizeof msg)) {
        request_fail(out, CGRPC_INVALID_ARGUMENT, "%s: %s", d->short_name, msg);
        return NULL;
    }
    ProtobufCMessage *m = protobuf_c_message_unpack(d, NULL, len, req);
    if (!m) request_fail(out, CGRPC_INVALID_ARGUMENT, "%s: malformed protobuf message", d->short_name);
    return m;
}

/* ---- a generic witness decoded in place -----------------------------------------------------
 * protobuf-c's unpack copies every bytes field into a block of its own: for a 100 MB witness one
 * more copy into fresh pages on the way to the job. The split decode finds the witness field at
 * the wire level, unpacks the message without it, and gives its place in the received bytes. */
#define FIELD_SUBMIT 1                          /* ProveRequest.submit */
#define FIELD_WITNESS 101                       /* SubmitProofRequest.witness */

static int pb_varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v) {
    uint64_t x = 0;
    for (int sh = 0; sh < 64 && *i < n; sh += 7) {
        const uint8_t b = p[(*i)++];
        x |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* The top level of the message p[0, n): how many times field f occurs with wire type 2 (a length),
 * the last one's key at *hdr, value at [*val, *end); -1 for bytes that are not a message (protobuf-c
 * refuses them then) or f with another wire type. */
static int pb_scan_len_field(const uint8_t *p, size_t n, uint32_t f, size_t *hdr, size_t *val, size_t *end) {
    int count = 0;
    size_t i = 0;
    while (i < n) {
        const size_t h = i;
        uint64_t key, v;
        if (pb_varint(p, n, &i, &key)) return -1;
        const unsigned wt = (unsigned)(key & 7);
        const uint64_t field = key >> 3;
        switch (wt) {
        case 0: if (pb_varint(p, n, &i, &v)) return -1; break;
        case 1: if (n - i < 8) return -1; i += 8; break;
        case 5: if (n - i < 4) return -1; i += 4; break;
        case 2:
            if (pb_varint(p, n, &i, &v) || v > n - i) return -1;
            if (field == f) {
                count++;
                *hdr = h;
                *val = i;
                *end = i + (size_t)v;
            }
            i += (size_t)v;
            continue;
        default: return -1; /* groups: not in this schema */
        }
        if (field == f) return -1;
    }
    return count;
}

static size_t pb_put_varint(uint8_t *p, uint64_t v) {
    size_t k = 0;
    do {
        p[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return k;
}

ProtobufCMessage *request_decode_split(const ProtobufCMessageDescriptor *d, const uint8_t *req, size_t len,
                                       size_t min_split, cgrpc_reply *out, size_t *w_off, size_t *w_len) {
    *w_off = *w_len = 0;
    const int prove = d == &cuzk__v1__prove_request__descriptor;
    if ((!prove && d != &cuzk__v1__submit_proof_request__descriptor) || len < min_split)
        return request_decode(d, req, len, out);
    /* the submit message: all of req, or the one submit field of a ProveRequest (a message field
     * that occurs twice is merged by protobuf: then the plain decode) */
    size_t s_hdr = 0, s_val = 0, s_end = len;
    if (prove && pb_scan_len_field(req, len, FIELD_SUBMIT, &s_hdr, &s_val, &s_end) != 1)
        return request_decode(d, req, len, out);
    size_t w_hdr, w_val, w_end;
    if (pb_scan_len_field(req + s_val, s_end - s_val, FIELD_WITNESS, &w_hdr, &w_val, &w_end) != 1 ||
        w_end - w_val < min_split || w_end == w_val)
        return request_decode(d, req, len, out);
    w_hdr += s_val; w_val += s_val; w_end += s_val;
    /* the message without the witness field; a ProveRequest's submit gets its new length */
    const size_t sub_len = (s_end - s_val) - (w_end - w_hdr);
    uint8_t *m = malloc(len - (w_end - w_hdr) + 16);
    if (!m) {
        request_fail(out, CGRPC_RESOURCE_EXHAUSTED, "%s: out of memory decoding the request", d->short_name);
        return NULL;
    }
    size_t k = 0;
    if (prove) {
        memcpy(m, req, s_hdr);
        k = s_hdr;
        k += pb_put_varint(m + k, (uint64_t)FIELD_SUBMIT << 3 | 2);
        k += pb_put_varint(m + k, sub_len);
    }
    memcpy(m + k, req + s_val, w_hdr - s_val);
    k += w_hdr - s_val;
    memcpy(m + k, req + w_end, s_end - w_end);
    k += s_end - w_end;
    if (prove) {
        memcpy(m + k, req + s_end, len - s_end);
        k += len - s_end;
    }
    ProtobufCMessage *msg = request_decode(d, m, k, out);
    free(m);
    if (msg) {
        *w_off = w_val;
        *w_len = w_end - w_val;
    }
    return msg;
}

/* Two independent 64-bit hashes of the request's inputs (every field but request_id and
 * priority), for request_id deduplication. */
/* A field of HASH_TREE_MIN bytes or more is hashed as a tree: the SHA-256 of each HASH_LEAF
 * bytes (the last leaf shorter), computed on up to HASH_THREADS threads, then those digests in
 * order (a 100 MB witness: ~60 ms on one core of a 2 GB/s SHA-256, a few ms on 16). The length
 * prefix says which form follows, so the encoding stays unambiguous. */
#define HASH_TREE_MIN ((size_t)4 << 20)
#define HASH_LEAF ((size_t)1 << 20)
#define HASH_THREADS 16

typedef struct {
    const uint8_t *p;
    size_t n, leaves;
    unsigned char *dig; /* 32 bytes per leaf */
    atomic_size_t next;
    atomic_int failed;
} hash_tree;

static void *hash_leaves(void *arg) {
    hash_tree *t = arg;
    for (;;) {
        const size_t i = atomic_fetch_add(&t->next, 1);
        if (i >= t->leaves) break;
        const size_t off = i * HASH_LEAF, len = t->n - off < HASH_LEAF ? t->n - off : HASH_LEAF;
        unsigned dl = 0;
        if (EVP_Digest(t->p + off, len, t->dig + 32 * i, &dl, EVP_sha256(), NULL) != 1 || dl != 32)
            atomic_store(&t->failed, 1);
    }
    return NULL;
}

static int sha_bytes(EVP_MD_CTX *x, const uint8_t *p, size_t n) {
    uint64_t len = n; /* length-prefixed: the fields' boundaries are part of what is hashed */
    if (EVP_DigestUpdate(x, &len, sizeof len) != 1) return 0;
    if (n < HASH_TREE_MIN) return n == 0 || EVP_DigestUpdate(x, p, n) == 1;
    hash_tree t = {p, n, (n + HASH_LEAF - 1) / HASH_LEAF, NULL, 0, 0};
    t.dig = malloc(32 * t.leaves);
    if (!t.dig) return 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t nt = cpus > 1 ? (size_t)cpus : 1;
    if (nt > HASH_THREADS) nt = HASH_THREADS;
    if (nt > t.leaves) nt = t.leaves;
    pthread_t th[HASH_THREADS];
    size_t started = 0;
    for (; started + 1 < nt; started++) /* the calling thread is the last worker */
        if (pthread_create(&th[started], NULL, hash_leaves, &t) != 0) break;
    hash_leaves(&t);
    for (size_t i = 0; i < started; i++) pthread_join(th[i], NULL);
    int ok = !atomic_load(&t.failed) && EVP_DigestUpdate(x, t.dig, 32 * t.leaves) == 1;
    free(t.dig);
    return ok;
}

/* SHA-256 of every input field but request_id and priority (the idempotency check: the same
 * request_id with the same inputs is the same job), first 128 bits; large fields as a tree of
 * leaf digests (sha_bytes). The small fields are hashed as
 * one packed message with the bulk fields (witness, vanilla_proof, vanilla_proofs) emptied, the
 * bulk ones straight from the decoded message: nothing the size of a witness is copied (the
 * whole request was packed again and hashed a byte at a time: ~0.3 s for a 100 MB witness). */
static int input_hash(const Cuzk__V1__SubmitProofRequest *r, uint64_t h[2]) {
    Cuzk__V1__SubmitProofRequest c = *r;
    c.request_id = (char *)"";
    c.priority = 0;
    c.witness.data = NULL;
    c.witness.len = 0;
    c.vanilla_proof.data = NULL;
    c.vanilla_proof.len = 0;
    c.n_vanilla_proofs = 0;
    c.vanilla_proofs = NULL;
    size_t n = cuzk__v1__submit_proof_request__get_packed_size(&c);
    uint8_t *b = malloc(n ? n : 1);
    EVP_MD_CTX *x = EVP_MD_CTX_new();
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned dl = 0;
    int ok = b && x && EVP_DigestInit_ex(x, EVP_sha256(), NULL) == 1;
    if (ok) {
        cuzk__v1__submit_proof_request__pack(&c, b);
        ok = sha_bytes(x, b, n) && sha_bytes(x, r->witness.data, r->witness.len) &&
             sha_bytes(x, r->vanilla_proof.data, r->vanilla_proof.len);
        uint64_t nv = r->n_vanilla_proofs;
        ok = ok && EVP_DigestUpdate(x, &nv, sizeof nv) == 1;
        for (size_t i = 0; ok && i < r->n_vanilla_proofs; i++)
            ok = sha_bytes(x, r->vanilla_proofs[i].data, r->vanilla_proofs[i].len);
        ok = ok && EVP_DigestFinal_ex(x, d, &dl) == 1 && dl >= 16;
    }
    EVP_MD_CTX_free(x);
    free(b);
    if (!ok) return -1;
    memcpy(h, d, 16);
    return 0;
}

/* ---- PoSt requests ----
 * registered_proof is a RegisteredPoStProof (go-state-types abi/sector.go): 0..4
 * StackedDrgWinning{2KiB,8MiB,512MiB,32GiB,64GiB}V1, 5..9 StackedDrgWindow...V1, 10..14
 * StackedDrgWindow...V1_1. Winning and Window V1 prove with rust-fil-proofs ApiVersion 1.0.0;
 * Window V1_1 is filecoin-ffi's StackedDrgWindow...V1_2, ApiVersion 1.2.0. */
static const uint64_t POST_SIZES[5] = {2048ull, 8ull << 20, 512ull << 20, 32ull << 30, 64ull << 30};
static const char *const POST_SIZE_NAMES[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};

/* BLS12-381 r, little-endian: randomness must be a canonical field element (rust-fil-proofs refuses
 * others; Lotus and Curio clear the top two bits before sending) */
static int fr_canonical_le(const uint8_t b[32]) {
    static const uint8_t R_LE[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
                                     0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    for (int i = 31; i >= 0; i--)
        if (b[i] != R_LE[i]) return b[i] < R_LE[i];
    return 0;
}

/* Checks a WINDOW_POST_PARTITION / WINNING_POST request and fills js (circuit, vanilla proofs
 * copied and concatenated, randomness, partition, ApiVersion). 0: ok; 1: refused, the reason in
 * why (the job then completes FAILED with it); -1: out of memory (out set). */
static int post_request(const dcfg *cfg, const Cuzk__V1__SubmitProofRequest *r, job_submit *js, char *why, size_t cap,
                        cgrpc_reply *out) {
    int kind = (int)r->proof_kind;
    uint64_t rp = r->registered_proof;
    const char *kname = jobs_kind_name(kind);
    if (rp > 14) {
        snprintf(why, cap, "cuzk cannot prove this %s request: registered_proof %" PRIu64 " is not a RegisteredPoStProof "
                 "(0..4 WinningPoSt V1, 5..9 WindowPoSt V1, 10..14 WindowPoSt V1_1)", kname, rp);
        return 1;
    }
    int winning = rp <= 4;
    int size_i = (int)(rp % 5);
    char pname[64];
    snprintf(pname, sizeof pname, "StackedDrg%s%sV1%s", winning ? "Winning" : "Window", POST_SIZE_NAMES[size_i],
             rp >= 10 ? "_1" : "");
    if (winning != (kind == JK_WINNING)) {
        snprintf(why, cap, "cuzk cannot prove this %s request: registered_proof %" PRIu64 " (%s) is a %s proof", kname, rp,
                 pname, winning ? "WinningPoSt" : "WindowPoSt");
        return 1;
    }
    uint64_t size = POST_SIZES[size_i];
    if (r->sector_size && r->sector_size != size) {
        snprintf(why, cap, "cuzk cannot prove this %s request: sector_size %" PRIu64 " does not match registered_proof %" PRIu64
                 " (%s: %" PRIu64 " bytes)", kname, r->sector_size, rp, pname, size);
        return 1;
    }
    const char *id = dcfg_post_id(kind, size);
    const dcfg_circuit *c = id ? dcfg_find_circuit(cfg, id) : NULL;
    if (!c) {
        snprintf(why, cap, "cuzk cannot prove %s %s here: no [circuits.\"%s\"] (its params) in the configuration", kname,
                 POST_SIZE_NAMES[size_i], id ? id : "?");
        return 1;
    }
    if (r->randomness.len != 32 || !fr_canonical_le(r->randomness.data)) {
        snprintf(why, cap, "%s: randomness (field 22) must be 32 bytes, a canonical BLS12-381 scalar little-endian (got %zu "
                 "bytes%s)", kname, r->randomness.len, r->randomness.len == 32 ? ", >= the field modulus" : "");
        return 1;
    }
    uint32_t max_sectors = c->sectors ? c->sectors : size == (32ull << 30) ? 2349 : size == (64ull << 30) ? 2300 : 2;
    if (winning && r->n_vanilla_proofs != 1) {
        snprintf(why, cap, "%s: %zu vanilla proofs (field 11); WinningPoSt takes one, the challenged sector's, with one "
                 "challenge per circuit slot (%u)", kname, r->n_vanilla_proofs, c->sectors ? c->sectors : 66);
        return 1;
    }
    if (r->n_vanilla_proofs == 0 || r->n_vanilla_proofs > max_sectors) {
        snprintf(why, cap, "%s: %zu vanilla proofs (field 11); circuit %s takes 1 to %u (one per sector of the partition)", kname,
                 r->n_vanilla_proofs, id, max_sectors);
        return 1;
    }
    if (winning && r->partition_index != 0) {
        snprintf(why, cap, "%s: partition_index %u: WinningPoSt has one partition (0)", kname, r->partition_index);
        return 1;
    }
    size_t total = 0;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) total += r->vanilla_proofs[i].len;
    js->vanilla_lens = malloc(r->n_vanilla_proofs * sizeof *js->vanilla_lens);
    js->witness = malloc(total ? total : 1);
    if (!js->vanilla_lens || !js->witness) {
        free(js->vanilla_lens);
        free(js->witness);
        js->vanilla_lens = NULL;
        js->witness = NULL;
        request_fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory for the vanilla proofs");
        return -1;
    }
    size_t off = 0;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
        if (r->vanilla_proofs[i].len) memcpy(js->witness + off, r->vanilla_proofs[i].data, r->vanilla_proofs[i].len);
        js->vanilla_lens[i] = r->vanilla_proofs[i].len;
        off += r->vanilla_proofs[i].len;
    }
    js->witness_len = total;
    js->n_vanilla = r->n_vanilla_proofs;
    memcpy(js->randomness, r->randomness.data, 32);
    js->partition = r->partition_index;
    js->api_version = rp >= 10 ? 12 : 10;
    js->circuit_id = c->id;
    return 0;
}

/* ---- PoRep requests ----
 * registered_proof is a RegisteredSealProof (go-state-types abi/sector.go): 0..4
 * StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1, 5..9 ...V1_1, 10..14 ...V1_1_Feat_SyntheticPoRep;
 * 15..19 (NI-PoRep) is not proved here. vanilla_proof carries the C1 output (Curio's wrapper or
 * the bare JSON); it is read and checked by the worker (a bad one FAILS the job, named). Checks
 * the request only: 0 ok; 1 refused (why); -1 out of memory (out set). */
static int porep_request(const dcfg *cfg, const Cuzk__V1__SubmitProofRequest *r, job_submit *js, char *why, size_t cap,
                         cgrpc_reply *out) {
    static const char *const SIZE_NAMES[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
    uint64_t rp = r->registered_proof;
    if (rp > 14) {
        snprintf(why, cap, "cuzk cannot prove this POREP_SEAL_COMMIT request: registered_proof %" PRIu64 " is not a "
                 "RegisteredSealProof cuzk proves (0..4 V1, 5..9 V1_1, 10..14 V1_1 + SyntheticPoRep; 15..19 NI-PoRep is "
                 "not supported)", rp);
        return 1;
    }
    uint64_t size = POST_SIZES[rp % 5];
    if (r->sector_size && r->sector_size != size) {
        snprintf(why, cap, "cuzk cannot prove this POREP_SEAL_COMMIT request: sector_size %" PRIu64 " does not match "
                 "registered_proof %" PRIu64 " (%s: %" PRIu64 " bytes)", r->sector_size, rp, SIZE_NAMES[rp % 5], size);
        return 1;
    }
    const char *id = dcfg_porep_id(size);
    const dcfg_circuit *c = id ? dcfg_find_circuit(cfg, id) : NULL;
    if (!c) {
        snprintf(why, cap, "cuzk cannot prove POREP_SEAL_COMMIT %s here: no [circuits.\"%s\"] (its params) in the "
                 "configuration", SIZE_NAMES[rp % 5], id ? id : "?");
        return 1;
    }
    if (r->vanilla_proof.len == 0) {
        snprintf(why, cap, "POREP_SEAL_COMMIT: vanilla_proof (field 10) is empty: it carries the C1 output "
                 "({\"SectorNum\", \"Phase1Out\", \"SectorSize\"})");
        return 1;
    }
    js->witness = malloc(r->vanilla_proof.len);
    if (!js->witness) {
        request_fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory for the C1 output (%zu bytes)", r->vanilla_proof.len);
        return -1;
    }
    memcpy(js->witness, r->vanilla_proof.data, r->vanilla_proof.len);
    js->witness_len = r->vanilla_proof.len;
    js->porep = 1;
    js->sector_id = r->sector_number;
    js->miner_id = r->miner_id;
    js->registered_proof = rp;
    js->circuit_id = c->id;
    return 0;
}

/* ---- SnapDeals requests ----
 * registered_proof is a RegisteredUpdateProof (go-state-types abi/sector.go): 0..4
 * StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1. vanilla_proofs carries one PartitionProof per
 * partition (bincode, as rust-filecoin-proofs-api returns them and Curio forwards them); comm_r_old,
 * comm_r_new and comm_d_new the commitments, as the raw 32 bytes (cuzk-v1) or as Curio's
 * ProveUpdateCuzk sends them, cid.Bytes() (cuzk_commitment_from_bytes takes both). The partition
 * proofs are read and checked by the worker (a bad one FAILS the job, named). Checks the request
 * only: 0 ok; 1 refused (why); -1 out of memory (out set). */
static int snap_commitment(uint8_t out[32], const ProtobufCBinaryData *b, const char *name, int field, cuzk_commitment_kind kind,
                           char *why, size_t cap) {
    cuzk_error e;
    memset(&e, 0, sizeof e);
    if (b->len == 0) {
        snprintf(why, cap, "SNAP_DEALS_UPDATE: %s (field %d) is empty: it carries the commitment (32 raw bytes or its CID)",
                 name, field);
        return 1;
    }
    if (cuzk_commitment_from_bytes(out, b->data, b->len, kind, &e) != CUZK_OK) {
        snprintf(why, cap, "SNAP_DEALS_UPDATE: %s (field %d): %s", name, field, e.msg[0] ? e.msg : "not a commitment");
        return 1;
    }
    if (!fr_canonical_le(out)) {
        snprintf(why, cap, "SNAP_DEALS_UPDATE: %s (field %d): not a BLS12-381 field element (>= the modulus, little-endian)",
                 name, field);
        return 1;
    }
    return 0;
}

static int snap_request(const dcfg *cfg, const Cuzk__V1__SubmitProofRequest *r, job_submit *js, char *why, size_t cap,
                        cgrpc_reply *out) {
    static const uint32_t PARTITIONS[5] = {1, 4, 16, 16, 16}; /* storage-proofs-update constants.rs */
    uint64_t rp = r->registered_proof;
    if (rp > 4) {
        snprintf(why, cap, "cuzk cannot prove this SNAP_DEALS_UPDATE request: registered_proof %" PRIu64 " is not a "
                 "RegisteredUpdateProof (0..4: StackedDrg 2KiB, 8MiB, 512MiB, 32GiB, 64GiB V1)", rp);
        return 1;
    }
    uint64_t size = POST_SIZES[rp];
    if (r->sector_size && r->sector_size != size) {
        snprintf(why, cap, "cuzk cannot prove this SNAP_DEALS_UPDATE request: sector_size %" PRIu64 " does not match "
                 "registered_proof %" PRIu64 " (%s: %" PRIu64 " bytes)", r->sector_size, rp, POST_SIZE_NAMES[rp], size);
        return 1;
    }
    const char *id = dcfg_snap_id(size);
    const dcfg_circuit *c = id ? dcfg_find_circuit(cfg, id) : NULL;
    if (!c) {
        snprintf(why, cap, "cuzk cannot prove SNAP_DEALS_UPDATE %s here: no [circuits.\"%s\"] (its params) in the "
                 "configuration", POST_SIZE_NAMES[rp], id ? id : "?");
        return 1;
    }
    if (r->n_vanilla_proofs != PARTITIONS[rp]) {
        snprintf(why, cap, "SNAP_DEALS_UPDATE: %zu vanilla proofs (field 11); registered_proof %" PRIu64 " (%s) takes %u, "
                 "one partition proof per partition", r->n_vanilla_proofs, rp, POST_SIZE_NAMES[rp], PARTITIONS[rp]);
        return 1;
    }
    for (size_t i = 0; i < r->n_vanilla_proofs; i++)
        if (r->vanilla_proofs[i].len == 0) {
            snprintf(why, cap, "SNAP_DEALS_UPDATE: vanilla proof %zu (field 11) is empty: it carries partition %zu's proof",
                     i, i);
            return 1;
        }
    if (snap_commitment(js->comm_r_old, &r->comm_r_old, "comm_r_old", 30, CUZK_COMMITMENT_SEALED, why, cap) ||
        snap_commitment(js->comm_r_new, &r->comm_r_new, "comm_r_new", 31, CUZK_COMMITMENT_SEALED, why, cap) ||
        snap_commitment(js->comm_d_new, &r->comm_d_new, "comm_d_new", 32, CUZK_COMMITMENT_UNSEALED, why, cap))
        return 1;
    size_t total = 0;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) total += r->vanilla_proofs[i].len;
    js->vanilla_lens = malloc(r->n_vanilla_proofs * sizeof *js->vanilla_lens);
    js->witness = malloc(total);
    if (!js->vanilla_lens || !js->witness) {
        free(js->vanilla_lens);
        free(js->witness);
        js->vanilla_lens = NULL;
        js->witness = NULL;
        request_fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory for the partition proofs (%zu bytes)", total);
        return -1;
    }
    size_t off = 0;
    for (size_t i = 0; i < r->n_vanilla_proofs; i++) {
        memcpy(js->witness + off, r->vanilla_proofs[i].data, r->vanilla_proofs[i].len);
        js->vanilla_lens[i] = r->vanilla_proofs[i].len;
        off += r->vanilla_proofs[i].len;
    }
    js->witness_len = total;
    js->n_vanilla = r->n_vanilla_proofs;
    js->snap = 1;
    js->registered_proof = rp;
    js->circuit_id = c->id;
    return 0;
}

/* The checks of every kind, then the input hash and the generic witness copy. */
int request_submit_check(const dcfg *cfg, Cuzk__V1__SubmitProofRequest *r, job_submit *js, char *failmsg,
                         size_t cap, cgrpc_reply *out) {
    memset(js, 0, sizeof *js);
    const char *kname = jobs_kind_name((int)r->proof_kind);
    if (!kname) {
        request_fail(out, CGRPC_INVALID_ARGUMENT, "unknown proof_kind %d (known: 1..4, 100 = GENERIC_GROTH16)",
                     (int)r->proof_kind);
        return -1;
    }
    if ((int)r->priority < 0 || (int)r->priority > 4) {
        request_fail(out, CGRPC_INVALID_ARGUMENT, "unknown priority %d (known: 0..4)", (int)r->priority);
        return -1;
    }
    js->kind = (int)r->proof_kind;
    js->priority = r->priority == 0 ? 2 : (int)r->priority;
    js->request_id = r->request_id;
    if (strlen(r->request_id) > 1024) {
        request_fail(out, CGRPC_INVALID_ARGUMENT, "request_id longer than 1024 bytes");
        return -1;
    }
    if (js->kind == JK_GENERIC) {
        const dcfg_circuit *c = dcfg_find_circuit(cfg, r->circuit_id);
        if (!*r->circuit_id) {
            request_fail(out, CGRPC_INVALID_ARGUMENT, "GENERIC_GROTH16 needs circuit_id (field 100)");
            return -1;
        }
        if (!c) {
            request_fail(out, CGRPC_NOT_FOUND, "unknown circuit_id \"%.200s\" (not in the configuration)", r->circuit_id);
            return -1;
        }
        if (c->filecoin) {
            request_fail(out, CGRPC_INVALID_ARGUMENT, "circuit %s is a Filecoin circuit: send its own proof kind", c->id);
            return -1;
        }
        if (r->witness.len == 0) {
            request_fail(out, CGRPC_INVALID_ARGUMENT, "GENERIC_GROTH16 needs witness (field 101: .wtns bytes)");
            return -1;
        }
        js->circuit_id = c->id;
    } else if (js->kind == JK_WPOST || js->kind == JK_WINNING) {
        int pr = post_request(cfg, r, js, failmsg, cap, out);
        if (pr < 0) return -1;
        if (pr > 0) js->fail_message = failmsg;
    } else if (js->kind == JK_POREP) {
        int pr = porep_request(cfg, r, js, failmsg, cap, out);
        if (pr < 0) return -1;
        if (pr > 0) js->fail_message = failmsg;
    } else {
        int pr = snap_request(cfg, r, js, failmsg, cap, out);
        if (pr < 0) return -1;
        if (pr > 0) js->fail_message = failmsg;
    }
    if (input_hash(r, js->input_hash)) {
        free(js->witness);
        free(js->vanilla_lens);
        js->witness = NULL;
        js->vanilla_lens = NULL;
        request_fail(out, CGRPC_RESOURCE_EXHAUSTED, "out of memory");
        return -1;
    }
    if (js->kind == JK_GENERIC) {
        /* the witness moves out of the message: protobuf-c's unpack made it a block of its own with
         * the system allocator (malloc), which the job frees; the message then holds none, so its
         * free_unpacked leaves it (a 100 MB witness was copied a third time here: ~1/3 of the
         * request's host time, mostly page faults on the fresh copy) */
        js->witness = r->witness.data;
        js->witness_len = r->witness.len;
        r->witness.data = NULL;
        r->witness.len = 0;
    }
    return 0;
}
