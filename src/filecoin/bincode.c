/* The bounded bincode reader of the vanilla proofs and their MerkleProof (bincode.h). */
#include "filecoin/bincode.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void bincode_init(bincode_reader *r, const uint8_t *data, size_t n, const char *prefix, cuzk_error *err) {
    memset(r, 0, sizeof *r);
    r->p = data;
    r->n = data ? n : 0;
    r->err = err;
    r->st = CUZK_OK;
    r->prefix = prefix ? prefix : "";
    r->index = -1;
    r->level = -1;
}

void bincode_fail(bincode_reader *r, const char *fmt, ...) {
    if (r->st != CUZK_OK) return;
    char msg[256], unit[64] = "", sec[64] = "", lev[64] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->index >= 0 && r->unit) snprintf(unit, sizeof unit, "%s %ld: ", r->unit, r->index);
    if (r->section) snprintf(sec, sizeof sec, "%s: ", r->section);
    if (r->level >= 0 && r->path) snprintf(lev, sizeof lev, "%s level %d: ", r->path, r->level);
    r->st = ERR(r->err, CUZK_ERR_FORMAT, "%s%s%s%s%s", r->prefix, unit, sec, lev, msg);
}

bool bincode_need(bincode_reader *r, size_t k, const char *field) {
    if (r->st != CUZK_OK) return false;
    if (r->n - r->off < k) {
        bincode_fail(r, "truncated: %s at byte %zu needs %zu bytes, %zu left", field, r->off, k, r->n - r->off);
        return false;
    }
    return true;
}

uint32_t bincode_u32(bincode_reader *r, const char *field) {
    if (!bincode_need(r, 4, field)) return 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)r->p[r->off + i] << (8 * i);
    r->off += 4;
    return v;
}

uint64_t bincode_u64(bincode_reader *r, const char *field) {
    if (!bincode_need(r, 8, field)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)r->p[r->off + i] << (8 * i);
    r->off += 8;
    return v;
}

uint64_t bincode_u64_eq(bincode_reader *r, uint64_t want, const char *field) {
    size_t at = r->off;
    uint64_t got = bincode_u64(r, field);
    if (r->st != CUZK_OK) return 0;
    if (got != want) {
        bincode_fail(r, "%s is %llu at byte %zu, expected %llu for this sector size", field, (unsigned long long)got, at,
                     (unsigned long long)want);
        return 0;
    }
    return got;
}

void bincode_fr(bincode_reader *r, fr *out, const char *field) {
    fr_zero(out);
    if (!bincode_need(r, 32, field)) return;
    if (!fr_from_bytes_le(out, r->p + r->off, 32)) {
        fr_zero(out);
        bincode_fail(r, "%s at byte %zu is not a canonical Fr (>= r)", field, r->off);
        return;
    }
    r->off += 32;
}

bool bincode_end(bincode_reader *r) {
    if (r->st == CUZK_OK && r->off != r->n) bincode_fail(r, "%zu trailing bytes after byte %zu", r->n - r->off, r->off);
    return r->st == CUZK_OK;
}

/* one InclusionPath: `levels` levels of one arity, into p from level `first` on */
static void read_path(bincode_reader *r, merkle_path *p, int first, int levels, int arity, const char *name) {
    char f[40];
    snprintf(f, sizeof f, "%s length (levels)", name);
    bincode_u64_eq(r, (uint64_t)levels, f);
    r->path = name;
    for (int l = 0; l < levels && r->st == CUZK_OK; l++) {
        r->level = l;
        bincode_u64_eq(r, (uint64_t)arity - 1, "sibling count");
        for (int s = 0; s < arity - 1; s++) bincode_fr(r, &p->siblings[first + l][s], "sibling");
        size_t at = r->off;
        uint64_t idx = bincode_u64(r, "index");
        if (r->st == CUZK_OK && idx >= (uint64_t)arity)
            bincode_fail(r, "index %llu at byte %zu is not below the arity %d", (unsigned long long)idx, at, arity);
        p->index[first + l] = (uint32_t)idx;
    }
    r->level = -1;
    r->path = NULL;
}

void bincode_merkle_proof(bincode_reader *r, const merkle_shape *sh, merkle_path *path, fr *leaf, fr *root) {
    static const char *const NAME[3] = {"Single", "Sub", "Top"};
    size_t at = r->off;
    uint32_t variant = bincode_u32(r, "MerkleProof variant");
    uint32_t want = sh->top_arity ? 2 : sh->sub_arity ? 1 : 0;
    if (r->st != CUZK_OK) return;
    if (variant != want) {
        bincode_fail(r, "MerkleProof variant %u%s%s%s at byte %zu, but this sector size's tree needs variant %u (%s): a proof for "
                     "another sector size?", variant, variant < 3 ? " (" : "", variant < 3 ? NAME[variant] : "",
                     variant < 3 ? ")" : "", at, want, NAME[want]);
        return;
    }
    if (variant == 0) {   /* SingleProof {root, leaf, path} */
        bincode_fr(r, root, "root");
        bincode_fr(r, leaf, "leaf");
        read_path(r, path, 0, sh->base_levels, sh->base_arity, "path");
        return;
    }
    /* SubProof and TopProof: {base_proof, sub_proof[, top_proof], root, leaf} */
    read_path(r, path, 0, sh->base_levels, sh->base_arity, "base path");
    read_path(r, path, sh->base_levels, 1, sh->sub_arity, "sub path");
    if (variant == 2) read_path(r, path, sh->base_levels + 1, 1, sh->top_arity, "top path");
    bincode_fr(r, root, "root");
    bincode_fr(r, leaf, "leaf");
}
