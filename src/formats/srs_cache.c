/* The pre-decoded SRS cache (srs_cache.h). */
#include "formats/srs_cache.h"
#include "formats/fmt_util.h"
#include "formats/mapped_file.h"
#include "util/log.h"
#include "util/parallel.h"
#include "util/timer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ROUND64(x) (((x) + 63) & ~(uint64_t)63)
#define ROUND_ALIGN(x) (((x) + SRS_CACHE_ALIGN - 1) & ~(SRS_CACHE_ALIGN - 1))
#define ENDIAN_MARK 0x01020304u
#define CURVE_TAG 0x0b1512381ull /* BLS12-381 */

static const char MAGIC[8] = {'c', 'u', 'z', 'k', '-', 's', 'r', 's'};

/* The header as it is on disk (host order; the endian mark says which). */
typedef struct disk_header {
    char magic[8];
    uint32_t version, header_bytes, endian, pad0;
    uint64_t curve;
    uint32_t g1_size, g2_size, fp_limbs, check;
    uint32_t origin, domain, n_contributions;
    uint32_t n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2, pad1;
    uint64_t params_size;
    int64_t params_mtime_sec, params_mtime_nsec;
    uint64_t params_digest;
    uint64_t vk_off, vk_bytes, g1_off, g1_bytes, g2_off, g2_bytes, chunk_bytes, sums_off, n_sums, file_bytes;
    uint64_t header_sum; /* srs_cache_hash of the header with this field 0 */
} disk_header;
_Static_assert(sizeof(disk_header) <= SRS_CACHE_HEADER_BYTES, "the header fits its page");

/* ---- the checksum ------------------------------------------------------------------------- */

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull
#define P4 0x85EBCA77C2B2AE63ull
#define P5 0x27D4EB2F165667C5ull

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static inline uint64_t round64(uint64_t acc, uint64_t in) { return rotl64(acc + in * P2, 31) * P1; }
static inline uint64_t merge64(uint64_t acc, uint64_t v) { return (acc ^ round64(0, v)) * P1 + P4; }
static inline uint64_t rd64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

uint64_t srs_cache_hash(const void *data, size_t bytes, uint64_t seed) {
    const uint8_t *p = data, *end = p + bytes;
    uint64_t h;
    if (bytes >= 32) {
        uint64_t v1 = seed + P1 + P2, v2 = seed + P2, v3 = seed, v4 = seed - P1;
        const uint8_t *lim = end - 32;
        do {
            v1 = round64(v1, rd64(p));
            v2 = round64(v2, rd64(p + 8));
            v3 = round64(v3, rd64(p + 16));
            v4 = round64(v4, rd64(p + 24));
            p += 32;
        } while (p <= lim);
        h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
        h = merge64(h, v1);
        h = merge64(h, v2);
        h = merge64(h, v3);
        h = merge64(h, v4);
    } else {
        h = seed + P5;
    }
    h += (uint64_t)bytes;
    for (; p + 8 <= end; p += 8) h = rotl64(h ^ round64(0, rd64(p)), 27) * P1 + P4;
    for (; p < end; p++) h = rotl64(h ^ (*p * P5), 11) * P1;
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}

/* ---- helpers ------------------------------------------------------------------------------ */

int srs_cache_path(char *buf, size_t cap, const char *params_path) {
    int n = snprintf(buf, cap, "%s%s", params_path ? params_path : "", SRS_CACHE_SUFFIX);
    return n < 0 || (size_t)n >= cap ? -1 : n;
}

static bool pread_full(int fd, void *buf, size_t n, uint64_t off) {
    uint8_t *b = buf;
    while (n) {
        ssize_t r = pread(fd, b, n, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            if (r == 0) errno = EIO;
            return false;
        }
        b += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return true;
}

static bool pwrite_full(int fd, const void *buf, size_t n, uint64_t off) {
    const uint8_t *b = buf;
    while (n) {
        ssize_t r = pwrite(fd, b, n, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            if (r == 0) errno = EIO;
            return false;
        }
        b += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return true;
}

#define DIGEST_EDGE ((uint64_t)64 << 10)
#define DIGEST_BLOCKS 256u
#define DIGEST_BLOCK ((uint64_t)4 << 10)

static cuzk_status digest_fd(int fd, uint64_t size, uint64_t *digest, const char *path, cuzk_error *err) {
    /* the first and last 64 KiB, and 256 blocks of 4 KiB at evenly spaced offsets, hashed in turn */
    uint8_t *buf = malloc(DIGEST_EDGE);
    if (!buf) return ERR(err, CUZK_ERR_NOMEM, "%s: cannot allocate a digest buffer", path);
    uint64_t h = srs_cache_hash(&size, sizeof size, 0x5253u);
    cuzk_status st = CUZK_OK;
    for (unsigned k = 0; k < DIGEST_BLOCKS + 2 && st == CUZK_OK; k++) {
        uint64_t off, n;
        if (k == 0) { off = 0; n = size < DIGEST_EDGE ? size : DIGEST_EDGE; }
        else if (k == 1) { n = size < DIGEST_EDGE ? size : DIGEST_EDGE; off = size - n; }
        else {
            if (size <= DIGEST_BLOCK) break;
            off = (size - DIGEST_BLOCK) / (DIGEST_BLOCKS - 1) * (k - 2);
            n = DIGEST_BLOCK;
        }
        if (n && !pread_full(fd, buf, (size_t)n, off))
            st = ERR(err, CUZK_ERR_IO, "%s: cannot read it for its digest: %s", path, strerror(errno));
        else
            h = srs_cache_hash(buf, (size_t)n, h);
    }
    free(buf);
    if (st == CUZK_OK) *digest = h;
    return st;
}

cuzk_status srs_cache_params_digest(const char *path, uint64_t *digest, uint64_t *size, cuzk_error *err) {
    if (!path || !digest) return ERR(err, CUZK_ERR_ARG, "srs_cache_params_digest: NULL argument");
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO: refused below, not waited on */
    if (fd < 0) return ERR(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    cuzk_status st;
    if (fstat(fd, &sb) != 0) st = ERR(err, CUZK_ERR_IO, "%s: cannot stat: %s", path, strerror(errno));
    else if (!S_ISREG(sb.st_mode)) st = ERR(err, CUZK_ERR_IO, "%s: not a regular file", path);
    else st = digest_fd(fd, (uint64_t)sb.st_size, digest, path, err);
    if (st == CUZK_OK && size) *size = (uint64_t)sb.st_size;
    close(fd);
    return st;
}

static uint64_t n_chunks(uint64_t bytes) { return (bytes + SRS_CACHE_CHUNK - 1) / SRS_CACHE_CHUNK; }

static cuzk_check_level level_of(cuzk_check_level l) { return l == CUZK_CHECK_DEFAULT ? CUZK_CHECK_CURVE : l; }

/* ---- writing ------------------------------------------------------------------------------ */

typedef struct piece {
    const void *ptr;  /* NULL: zeros */
    uint64_t bytes;
} piece;

typedef struct region_w {
    piece pc[8];
    int n;
    uint64_t bytes;
} region_w;

static void region_add(region_w *r, const void *ptr, uint64_t bytes) {
    if (!bytes) return;
    r->pc[r->n].ptr = ptr;
    r->pc[r->n].bytes = bytes;
    r->n++;
    r->bytes += bytes;
}

/* Copies region bytes [off, off + n) into out. */
static void region_copy(const region_w *r, uint8_t *out, uint64_t off, uint64_t n) {
    uint64_t base = 0;
    for (int i = 0; i < r->n && n; i++) {
        const piece *p = &r->pc[i];
        if (off < base + p->bytes) {
            uint64_t in = off - base, k = p->bytes - in < n ? p->bytes - in : n;
            if (p->ptr) memcpy(out, (const uint8_t *)p->ptr + in, (size_t)k);
            else memset(out, 0, (size_t)k);
            out += k;
            off += k;
            n -= k;
        }
        base += p->bytes;
    }
}

typedef struct write_batch {
    const region_w *r;
    uint8_t *buf;       /* k chunks */
    uint64_t first;     /* first chunk of the batch (in the region) */
    uint64_t k;
    uint64_t *sums;     /* the region's sums */
} write_batch;

static void batch_fill(void *vc, size_t b, size_t e, int tid) {
    (void)tid;
    write_batch *w = vc;
    for (size_t i = b; i < e; i++) {
        uint64_t off = (w->first + i) * SRS_CACHE_CHUNK;
        uint64_t n = w->r->bytes - off < SRS_CACHE_CHUNK ? w->r->bytes - off : SRS_CACHE_CHUNK;
        uint8_t *dst = w->buf + i * SRS_CACHE_CHUNK;
        region_copy(w->r, dst, off, n);
        w->sums[w->first + i] = srs_cache_hash(dst, (size_t)n, w->first + i);
    }
}

static cuzk_status write_region(int fd, uint64_t file_off, const region_w *r, uint64_t *sums, uint8_t *buf,
                                uint64_t batch, int nthreads, const char *tmp, cuzk_error *err) {
    uint64_t nc = n_chunks(r->bytes);
    for (uint64_t c = 0; c < nc; c += batch) {
        write_batch w = {r, buf, c, nc - c < batch ? nc - c : batch, sums};
        parallel_for((size_t)w.k, nthreads, batch_fill, &w);
        uint64_t off = c * SRS_CACHE_CHUNK, n = r->bytes - off < w.k * SRS_CACHE_CHUNK ? r->bytes - off : w.k * SRS_CACHE_CHUNK;
        if (!pwrite_full(fd, buf, (size_t)n, file_off + off))
            return ERR(err, CUZK_ERR_IO, "%s: write failed: %s", tmp, strerror(errno));
    }
    return CUZK_OK;
}

static void header_seal(disk_header *h) {
    h->header_sum = 0;
    h->header_sum = srs_cache_hash(h, sizeof *h, 0x48445253u);
}

cuzk_status srs_cache_write(const char *cache_path, const char *params_path, const bellperson_params *p,
                            cuzk_check_level verified, int nthreads, cuzk_error *err) {
    if (!cache_path || !params_path || !p || !p->vk.ic || (p->n_h && !p->h) || (p->n_l && !p->l) ||
        (p->n_a && !p->a) || (p->n_b_g1 && !p->b_g1) || (p->n_b_g2 && !p->b_g2))
        return ERR(err, CUZK_ERR_ARG, "srs_cache_write: NULL argument (or parameters without their points)");
    verified = level_of(verified);
    if (verified != CUZK_CHECK_CURVE && verified != CUZK_CHECK_FULL)
        return ERR(err, CUZK_ERR_ARG, "srs_cache_write: a cache records parameters checked at the curve or full level, "
                   "not %s", cuzk_check_level_str(verified));
    if (nthreads <= 0) nthreads = cuzk_num_threads();
    /* the temporary: a new file of a unique name (mkstemp: O_CREAT|O_EXCL, so a symlink planted
     * at a guessable name is never followed) in the cache's directory, renamed over the cache */
    char tmp[4200];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", cache_path) >= (int)sizeof tmp)
        return ERR(err, CUZK_ERR_ARG, "srs_cache_write: path too long");
    disk_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MAGIC, sizeof MAGIC);
    h.version = SRS_CACHE_VERSION;
    h.header_bytes = SRS_CACHE_HEADER_BYTES;
    h.endian = ENDIAN_MARK;
    h.curve = CURVE_TAG;
    h.g1_size = sizeof(g1_affine);
    h.g2_size = sizeof(g2_affine);
    h.fp_limbs = 6;
    h.check = verified;
    h.origin = p->origin;
    h.domain = p->domain;
    h.n_contributions = p->n_contributions;
    h.n_ic = p->vk.n_public + 1;
    h.n_h = p->n_h;
    h.n_l = p->n_l;
    h.n_a = p->n_a;
    h.n_b_g1 = p->n_b_g1;
    h.n_b_g2 = p->n_b_g2;
    /* the .params now (the caller decoded it; a change since then is its responsibility) */
    {
        struct stat sb;
        if (stat(params_path, &sb) != 0)
            return ERR(err, CUZK_ERR_IO, "%s: cannot stat: %s", params_path, strerror(errno));
        h.params_mtime_sec = (int64_t)sb.st_mtim.tv_sec;
        h.params_mtime_nsec = (int64_t)sb.st_mtim.tv_nsec;
        cuzk_status st = srs_cache_params_digest(params_path, &h.params_digest, &h.params_size, err);
        if (st) return st;
        if (h.params_size != (uint64_t)sb.st_size)
            return ERR(err, CUZK_ERR_IO, "%s: changed while its cache was being made", params_path);
    }
    region_w rv, r1, r2;
    memset(&rv, 0, sizeof rv);
    memset(&r1, 0, sizeof r1);
    memset(&r2, 0, sizeof r2);
    region_add(&rv, &p->vk.alpha1, sizeof(g1_affine));
    region_add(&rv, &p->vk.beta1, sizeof(g1_affine));
    region_add(&rv, &p->vk.beta2, sizeof(g2_affine));
    region_add(&rv, &p->vk.gamma2, sizeof(g2_affine));
    region_add(&rv, &p->vk.delta1, sizeof(g1_affine));
    region_add(&rv, &p->vk.delta2, sizeof(g2_affine));
    region_add(&rv, p->vk.ic, (uint64_t)h.n_ic * sizeof(g1_affine));
    const g1_affine *q1[4] = {p->h, p->l, p->a, p->b_g1};
    const uint32_t n1[4] = {p->n_h, p->n_l, p->n_a, p->n_b_g1};
    for (int k = 0; k < 4; k++) {
        uint64_t b = (uint64_t)n1[k] * sizeof(g1_affine);
        region_add(&r1, q1[k], b);
        region_add(&r1, NULL, ROUND64(b) - b);
    }
    {
        uint64_t b = (uint64_t)p->n_b_g2 * sizeof(g2_affine);
        region_add(&r2, p->b_g2, b);
        region_add(&r2, NULL, ROUND64(b) - b);
    }
    h.vk_off = SRS_CACHE_HEADER_BYTES;
    h.vk_bytes = rv.bytes;
    h.g1_off = ROUND_ALIGN(h.vk_off + h.vk_bytes);
    h.g1_bytes = r1.bytes;
    h.g2_off = ROUND_ALIGN(h.g1_off + h.g1_bytes);
    h.g2_bytes = r2.bytes;
    h.chunk_bytes = SRS_CACHE_CHUNK;
    h.sums_off = h.g2_off + h.g2_bytes;
    h.n_sums = n_chunks(rv.bytes) + n_chunks(r1.bytes) + n_chunks(r2.bytes);
    h.file_bytes = h.sums_off + h.n_sums * 8;

    cuzk_status st = CUZK_OK;
    uint64_t batch = (uint64_t)nthreads * 2;
    if (batch > 32) batch = 32;
    uint64_t *sums = calloc((size_t)h.n_sums + 1, 8);
    uint8_t *buf = malloc((size_t)(batch * SRS_CACHE_CHUNK));
    uint8_t *page = calloc(1, SRS_CACHE_HEADER_BYTES);
    int fd = -1;
    if (!sums || !buf || !page) {
        st = ERR(err, CUZK_ERR_NOMEM, "srs_cache_write: cannot allocate its buffers");
        goto out;
    }
    fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        st = ERR(err, CUZK_ERR_IO, "%s: cannot create a temporary next to it: %s", cache_path, strerror(errno));
        tmp[0] = 0; /* nothing to remove */
        goto out;
    }
    (void)fchmod(fd, 0644);
    if (ftruncate(fd, (off_t)h.file_bytes) != 0) {
        st = ERR(err, CUZK_ERR_IO, "%s: cannot size it to %llu bytes: %s", tmp, (unsigned long long)h.file_bytes,
                 strerror(errno));
        goto out;
    }
    uint64_t *s = sums;
    if ((st = write_region(fd, h.vk_off, &rv, s, buf, batch, nthreads, tmp, err))) goto out;
    s += n_chunks(rv.bytes);
    if ((st = write_region(fd, h.g1_off, &r1, s, buf, batch, nthreads, tmp, err))) goto out;
    s += n_chunks(r1.bytes);
    if ((st = write_region(fd, h.g2_off, &r2, s, buf, batch, nthreads, tmp, err))) goto out;
    if (!pwrite_full(fd, sums, (size_t)h.n_sums * 8, h.sums_off)) {
        st = ERR(err, CUZK_ERR_IO, "%s: write failed: %s", tmp, strerror(errno));
        goto out;
    }
    header_seal(&h);
    memcpy(page, &h, sizeof h);
    if (!pwrite_full(fd, page, SRS_CACHE_HEADER_BYTES, 0) || fsync(fd) != 0) {
        st = ERR(err, CUZK_ERR_IO, "%s: write failed: %s", tmp, strerror(errno));
        goto out;
    }
    if (close(fd) != 0) {
        fd = -1;
        st = ERR(err, CUZK_ERR_IO, "%s: close failed: %s", tmp, strerror(errno));
        goto out;
    }
    fd = -1;
    if (rename(tmp, cache_path) != 0) {
        st = ERR(err, CUZK_ERR_IO, "cannot rename %s to %s: %s", tmp, cache_path, strerror(errno));
        goto out;
    }
out:
    if (fd >= 0) close(fd);
    if (st && tmp[0]) (void)unlink(tmp);
    free(page);
    free(buf);
    free(sums);
    return st;
}

/* ---- reading ------------------------------------------------------------------------------ */

static cuzk_status header_read(int fd, const char *cache_path, disk_header *h, uint64_t file_size, cuzk_error *err) {
    if (file_size < SRS_CACHE_HEADER_BYTES)
        return ERR(err, CUZK_ERR_FORMAT, "SRS cache %s: truncated (%llu bytes, not even its %u-byte header)", cache_path,
                   (unsigned long long)file_size, SRS_CACHE_HEADER_BYTES);
    if (!pread_full(fd, h, sizeof *h, 0))
        return ERR(err, CUZK_ERR_IO, "SRS cache %s: cannot read its header: %s", cache_path, strerror(errno));
    if (memcmp(h->magic, MAGIC, sizeof MAGIC))
        return ERR(err, CUZK_ERR_FORMAT, "SRS cache %s: not a cuzk SRS cache (bad magic)", cache_path);
    if (h->endian != ENDIAN_MARK)
        return ERR(err, CUZK_ERR_FORMAT, "SRS cache %s: made on a host of the other byte order", cache_path);
    if (h->version != SRS_CACHE_VERSION)
        return ERR(err, CUZK_ERR_FORMAT, "SRS cache %s: version %u, this build reads version %u", cache_path, h->version,
                   SRS_CACHE_VERSION);
    uint64_t want = h->header_sum;
    disk_header t = *h;
    header_seal(&t);
    if (t.header_sum != want)
        return ERR(err, CUZK_ERR_FORMAT, "SRS cache %s: corrupt header (checksum mismatch)", cache_path);
    if (h->header_bytes != SRS_CACHE_HEADER_BYTES || h->curve != CURVE_TAG || h->g1_size != sizeof(g1_affine) ||
        h->g2_size != sizeof(g2_affine) || h->fp_limbs != 6 || h->chunk_bytes != SRS_CACHE_CHUNK)
        return ERR(err, CUZK_ERR_FORMAT, "SRS cache %s: another point layout than this build's", cache_path);
    /* the regions must be what the counts say, in order, inside the file */
    uint64_t vk = 3 * sizeof(g1_affine) + 3 * sizeof(g2_affine) + (uint64_t)h->n_ic * sizeof(g1_affine);
    uint64_t g1 = ROUND64((uint64_t)h->n_h * sizeof(g1_affine)) + ROUND64((uint64_t)h->n_l * sizeof(g1_affine)) +
                  ROUND64((uint64_t)h->n_a * sizeof(g1_affine)) + ROUND64((uint64_t)h->n_b_g1 * sizeof(g1_affine));
    uint64_t g2 = ROUND64((uint64_t)h->n_b_g2 * sizeof(g2_affine));
    if (h->n_ic == 0 || h->vk_off != SRS_CACHE_HEADER_BYTES || h->vk_bytes != vk || h->g1_bytes != g1 ||
        h->g2_bytes != g2 || h->g1_off != ROUND_ALIGN(h->vk_off + vk) || h->g2_off != ROUND_ALIGN(h->g1_off + g1) ||
        h->sums_off != h->g2_off + g2 || h->n_sums != n_chunks(vk) + n_chunks(g1) + n_chunks(g2) ||
        h->file_bytes != h->sums_off + h->n_sums * 8 || (h->check != CUZK_CHECK_CURVE && h->check != CUZK_CHECK_FULL) ||
        h->origin > BELLPERSON_ORIGIN_MPC_SNARKJS || h->domain > BELLPERSON_DOMAIN_SNARKJS)
        return ERR(err, CUZK_ERR_FORMAT, "SRS cache %s: corrupt header (its regions do not match its counts)", cache_path);
    if (file_size != h->file_bytes)
        return ERR(err, CUZK_ERR_FORMAT, "SRS cache %s: %s (%llu bytes, the header says %llu)", cache_path,
                   file_size < h->file_bytes ? "truncated" : "oversized", (unsigned long long)file_size,
                   (unsigned long long)h->file_bytes);
    return CUZK_OK;
}

static void info_of(srs_cache_info *i, const disk_header *h) {
    memset(i, 0, sizeof *i);
    i->version = h->version;
    i->check = (cuzk_check_level)h->check;
    i->origin = (bellperson_origin)h->origin;
    i->domain = (bellperson_domain)h->domain;
    i->n_contributions = h->n_contributions;
    i->n_ic = h->n_ic;
    i->n_h = h->n_h;
    i->n_l = h->n_l;
    i->n_a = h->n_a;
    i->n_b_g1 = h->n_b_g1;
    i->n_b_g2 = h->n_b_g2;
    i->params_size = h->params_size;
    i->params_mtime_sec = h->params_mtime_sec;
    i->params_mtime_nsec = h->params_mtime_nsec;
    i->params_digest = h->params_digest;
    i->vk_off = h->vk_off;
    i->vk_bytes = h->vk_bytes;
    i->g1_off = h->g1_off;
    i->g1_bytes = h->g1_bytes;
    i->g2_off = h->g2_off;
    i->g2_bytes = h->g2_bytes;
    i->sums_off = h->sums_off;
    i->n_sums = h->n_sums;
    i->file_bytes = h->file_bytes;
}

/* The header's counts and kind against what the .params's own header says (its counts, read
 * from a mapping: a few pages): a cache that claims other points than the .params has is refused
 * before anything is allocated for them. The decoded counts of an MPC file may be smaller than the
 * file's (points at infinity dropped from l, a, b_g1, b_g2), never larger; ic and h never drop. */
static cuzk_status header_vs_params(const disk_header *h, const char *cache_path, const char *params_path,
                                    cuzk_error *err) {
    mapped_file f;
    memset(&f, 0, sizeof f);
    cuzk_error e2;
    memset(&e2, 0, sizeof e2);
    if (mapped_file_open(&f, params_path, &e2) != CUZK_OK)
        return ERR(err, CUZK_ERR_IO, "%s: cannot read its header: %s", params_path, e2.msg);
    bellperson_layout L;
    char what[1100];
    snprintf(what, sizeof what, "bellperson params %s", params_path);
    cuzk_status st = bellperson_params_layout(&L, f.m_data, f.size_bytes, what, &e2);
    mapped_file_close(&f);
    if (st != CUZK_OK)
        return ERR(err, CUZK_ERR_MISMATCH, "SRS cache %s not used: its .params does not parse (%s)", cache_path, e2.msg);
    const int mpc = L.origin != BELLPERSON_ORIGIN_PARAMS;
    const char *bad = NULL;
    uint32_t cv = 0, pv = 0;
#define CMP_EQ(f, name) if (!bad && h->f != L.f) { bad = name; cv = h->f; pv = L.f; }
#define CMP_LE(f, name) if (!bad && (mpc ? h->f > L.f : h->f != L.f)) { bad = name; cv = h->f; pv = L.f; }
    CMP_EQ(n_ic, "ic")
    CMP_EQ(n_h, "h")
    CMP_LE(n_l, "l")
    CMP_LE(n_a, "a")
    CMP_LE(n_b_g1, "b_g1")
    CMP_LE(n_b_g2, "b_g2")
#undef CMP_EQ
#undef CMP_LE
    if (bad)
        return ERR(err, CUZK_ERR_MISMATCH, "SRS cache %s does not match %s: it claims %u %s points, the .params header "
                   "says %u%s", cache_path, params_path, cv, bad, pv, mpc ? " (at most, an MPC file)" : "");
    if (h->origin != (uint32_t)L.origin || h->domain != (uint32_t)L.domain || h->n_contributions != L.n_contributions)
        return ERR(err, CUZK_ERR_MISMATCH, "SRS cache %s does not match %s: its header says origin %u, domain %u, %u "
                   "contributions; the .params says origin %u, domain %u, %u contributions", cache_path, params_path,
                   h->origin, h->domain, h->n_contributions, (unsigned)L.origin, (unsigned)L.domain, L.n_contributions);
    return CUZK_OK;
}

/* Opens cache_path and checks its header against params_path and the level; *fd_out the open
 * cache on CUZK_OK. */
static cuzk_status probe_open(const char *cache_path, const char *params_path, cuzk_check_level check, disk_header *h,
                              int *fd_out, cuzk_error *err) {
    *fd_out = -1;
    int fd = open(cache_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO is not waited on */
    if (fd < 0) {
        int e = errno;
        cuzk_status st = ERR(err, CUZK_ERR_IO, "SRS cache %s: cannot open: %s", cache_path, strerror(e));
        errno = e;
        if (err) err->sys_errno = e;
        return st;
    }
    struct stat cs, ps;
    cuzk_status st;
    if (fstat(fd, &cs) != 0) {
        st = ERR(err, CUZK_ERR_IO, "SRS cache %s: cannot stat: %s", cache_path, strerror(errno));
        goto fail;
    }
    if (!S_ISREG(cs.st_mode)) {
        st = ERR(err, CUZK_ERR_IO, "SRS cache %s: not a regular file", cache_path);
        goto fail;
    }
    if ((st = header_read(fd, cache_path, h, (uint64_t)cs.st_size, err))) goto fail;
    if (stat(params_path, &ps) != 0) {
        st = ERR(err, CUZK_ERR_IO, "%s: cannot stat: %s", params_path, strerror(errno));
        goto fail;
    }
    if ((uint64_t)ps.st_size != h->params_size) {
        st = ERR(err, CUZK_ERR_MISMATCH, "SRS cache %s is stale: made from a %llu-byte %s, which is %llu bytes now",
                 cache_path, (unsigned long long)h->params_size, params_path, (unsigned long long)ps.st_size);
        goto fail;
    }
    if ((int64_t)ps.st_mtim.tv_sec != h->params_mtime_sec || (int64_t)ps.st_mtim.tv_nsec != h->params_mtime_nsec) {
        st = ERR(err, CUZK_ERR_MISMATCH, "SRS cache %s is stale: %s was modified after the cache was made (mtime "
                 "%lld.%09lld, the cache recorded %lld.%09lld)", cache_path, params_path, (long long)ps.st_mtim.tv_sec,
                 (long long)ps.st_mtim.tv_nsec, (long long)h->params_mtime_sec, (long long)h->params_mtime_nsec);
        goto fail;
    }
    if ((st = header_vs_params(h, cache_path, params_path, err))) goto fail;
    {
        uint64_t d = 0, sz = 0;
        if ((st = srs_cache_params_digest(params_path, &d, &sz, err))) goto fail;
        if (d != h->params_digest) {
            st = ERR(err, CUZK_ERR_MISMATCH, "SRS cache %s is stale: the content digest of %s differs from the one "
                     "recorded (%016llx, now %016llx)", cache_path, params_path, (unsigned long long)h->params_digest,
                     (unsigned long long)d);
            goto fail;
        }
    }
    if (level_of(check) > (cuzk_check_level)h->check) {
        st = ERR(err, CUZK_ERR_MISMATCH, "SRS cache %s was made from parameters checked at the %s level; %s is asked for",
                 cache_path, cuzk_check_level_str((cuzk_check_level)h->check), cuzk_check_level_str(level_of(check)));
        goto fail;
    }
    *fd_out = fd;
    return CUZK_OK;
fail:
    close(fd);
    return st;
}

cuzk_status srs_cache_probe(const char *cache_path, const char *params_path, cuzk_check_level check,
                            srs_cache_info *info, cuzk_error *err) {
    if (info) memset(info, 0, sizeof *info);
    if (!cache_path || !params_path) return ERR(err, CUZK_ERR_ARG, "srs_cache_probe: NULL argument");
    disk_header h;
    int fd;
    cuzk_status st = probe_open(cache_path, params_path, check, &h, &fd, err);
    if (st) return st;
    close(fd);
    if (info) info_of(info, &h);
    return CUZK_OK;
}

/* One region's chunks, read into their destination and checked. */
typedef struct load_job {
    int fd;
    uint8_t *dst[3];
    uint64_t off[3], bytes[3], first_chunk[4]; /* chunk numbering over the three regions */
    const uint64_t *sums;
    _Atomic uint64_t next;
    _Atomic int bad_errno;     /* a read failed */
    _Atomic uint64_t bad_chunk; /* lowest chunk whose checksum differs, UINT64_MAX: none */
} load_job;

static void load_worker(void *vc, size_t b, size_t e, int tid) {
    (void)b;
    (void)e;
    (void)tid;
    load_job *j = vc;
    for (;;) {
        uint64_t k = atomic_fetch_add(&j->next, 1);
        if (k >= j->first_chunk[3] || atomic_load(&j->bad_errno) || atomic_load(&j->bad_chunk) != UINT64_MAX) break;
        int r = k >= j->first_chunk[2] ? 2 : k >= j->first_chunk[1] ? 1 : 0;
        uint64_t c = k - j->first_chunk[r], off = c * SRS_CACHE_CHUNK;
        uint64_t n = j->bytes[r] - off < SRS_CACHE_CHUNK ? j->bytes[r] - off : SRS_CACHE_CHUNK;
        uint8_t *dst = j->dst[r] + off;
        if (!pread_full(j->fd, dst, (size_t)n, j->off[r] + off)) {
            int z = 0;
            atomic_compare_exchange_strong(&j->bad_errno, &z, errno ? errno : EIO);
            break;
        }
        if (srs_cache_hash(dst, (size_t)n, c) != j->sums[k]) {
            uint64_t cur = atomic_load(&j->bad_chunk);
            while (k < cur && !atomic_compare_exchange_weak(&j->bad_chunk, &cur, k)) {
            }
        }
    }
}

static cuzk_status load_impl(bellperson_params *p, const char *cache_path, const char *params_path,
                             const bellperson_load_opts *opts, cuzk_check_level *recorded, cuzk_error *err);

cuzk_status srs_cache_load(bellperson_params *p, const char *cache_path, const char *params_path,
                           const bellperson_load_opts *opts, cuzk_error *err) {
    return load_impl(p, cache_path, params_path, opts, NULL, err);
}

static cuzk_status load_impl(bellperson_params *p, const char *cache_path, const char *params_path,
                             const bellperson_load_opts *opts, cuzk_check_level *recorded, cuzk_error *err) {
    static const bellperson_load_opts dflt;
    const bellperson_load_opts *o = opts ? opts : &dflt;
    if (p) memset(p, 0, sizeof *p);
    if (!p || !cache_path || !params_path) return ERR(err, CUZK_ERR_ARG, "srs_cache_load: NULL argument");
    disk_header h;
    int fd;
    cuzk_status st = probe_open(cache_path, params_path, o->check, &h, &fd, err);
    if (st) return st;
    if (recorded) *recorded = (cuzk_check_level)h.check;
    uint8_t *vk = NULL, *block = NULL, *g2_block = NULL;
    uint64_t *sums = NULL;
    g1_affine *ic = NULL;
    const int apart = o->g2_apart && h.n_b_g2 && h.g1_bytes;
    size_t block_bytes = apart ? (size_t)h.g1_bytes : (size_t)(h.g1_bytes + h.g2_bytes);
    size_t g2_bytes = apart ? (size_t)h.g2_bytes : 0;
    vk = malloc((size_t)h.vk_bytes);
    sums = malloc((size_t)h.n_sums * 8);
    ic = malloc((size_t)h.n_ic * sizeof *ic);
    if (!vk || !sums || !ic) {
        st = ERR(err, CUZK_ERR_NOMEM, "SRS cache %s: cannot allocate the verifying key", cache_path);
        goto out;
    }
    if (block_bytes) {
        block = bellperson_block_alloc(o, block_bytes);
        if (!block || ((uintptr_t)block & 63)) {
            if (block) bellperson_block_free(o, block, block_bytes);
            block = NULL;
            st = ERR(err, CUZK_ERR_NOMEM, "SRS cache %s: cannot allocate %zu bytes (64-byte aligned) for the points",
                     cache_path, block_bytes);
            goto out;
        }
    }
    if (g2_bytes) {
        g2_block = bellperson_block_alloc(o, g2_bytes);
        if (!g2_block || ((uintptr_t)g2_block & 63)) {
            if (g2_block) bellperson_block_free(o, g2_block, g2_bytes);
            g2_block = NULL;
            st = ERR(err, CUZK_ERR_NOMEM, "SRS cache %s: cannot allocate %zu bytes (64-byte aligned) for b_g2",
                     cache_path, g2_bytes);
            goto out;
        }
    }
    if (!pread_full(fd, sums, (size_t)h.n_sums * 8, h.sums_off)) {
        st = ERR(err, CUZK_ERR_IO, "SRS cache %s: cannot read its checksums: %s", cache_path, strerror(errno));
        goto out;
    }
    {
        load_job *j = calloc(1, sizeof *j);
        if (!j) {
            st = ERR(err, CUZK_ERR_NOMEM, "SRS cache %s: cannot allocate the loader", cache_path);
            goto out;
        }
        j->fd = fd;
        j->dst[0] = vk;
        j->dst[1] = block;
        j->dst[2] = apart ? g2_block : block + h.g1_bytes;
        j->off[0] = h.vk_off;
        j->off[1] = h.g1_off;
        j->off[2] = h.g2_off;
        j->bytes[0] = h.vk_bytes;
        j->bytes[1] = h.g1_bytes;
        j->bytes[2] = h.g2_bytes;
        j->first_chunk[0] = 0;
        for (int r = 0; r < 3; r++) j->first_chunk[r + 1] = j->first_chunk[r] + n_chunks(j->bytes[r]);
        j->sums = sums;
        atomic_init(&j->next, 0);
        atomic_init(&j->bad_errno, 0);
        atomic_init(&j->bad_chunk, UINT64_MAX);
        int nthreads = o->nthreads > 0 ? o->nthreads : cuzk_num_threads();
        if ((uint64_t)nthreads > j->first_chunk[3]) nthreads = (int)j->first_chunk[3];
        if (nthreads < 1) nthreads = 1;
        (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
        parallel_for((size_t)nthreads, nthreads, load_worker, j);
        int be = atomic_load(&j->bad_errno);
        uint64_t bc = atomic_load(&j->bad_chunk);
        uint64_t fc[4];
        memcpy(fc, j->first_chunk, sizeof fc);
        free(j);
        if (be) {
            errno = be;
            st = ERR(err, CUZK_ERR_IO, "SRS cache %s: read failed: %s", cache_path, strerror(be));
            goto out;
        }
        if (bc != UINT64_MAX) {
            int r = bc >= fc[2] ? 2 : bc >= fc[1] ? 1 : 0;
            static const char *const rn[3] = {"verifying key", "G1 queries", "b_g2"};
            st = ERR(err, CUZK_ERR_FORMAT, "SRS cache %s: corrupt: the checksum of chunk %llu of its %s (bytes %llu.., "
                     "4 MiB chunks) differs from the one recorded", cache_path, (unsigned long long)(bc - fc[r]), rn[r],
                     (unsigned long long)(bc - fc[r]) * SRS_CACHE_CHUNK);
            goto out;
        }
    }
    /* the verifying key */
    {
        const uint8_t *q = vk;
        memcpy(&p->vk.alpha1, q, sizeof(g1_affine));
        q += sizeof(g1_affine);
        memcpy(&p->vk.beta1, q, sizeof(g1_affine));
        q += sizeof(g1_affine);
        memcpy(&p->vk.beta2, q, sizeof(g2_affine));
        q += sizeof(g2_affine);
        memcpy(&p->vk.gamma2, q, sizeof(g2_affine));
        q += sizeof(g2_affine);
        memcpy(&p->vk.delta1, q, sizeof(g1_affine));
        q += sizeof(g1_affine);
        memcpy(&p->vk.delta2, q, sizeof(g2_affine));
        q += sizeof(g2_affine);
        memcpy(ic, q, (size_t)h.n_ic * sizeof *ic);
    }
    bellperson_params_bind_block(p, block, g2_block, h.n_h, h.n_l, h.n_a, h.n_b_g1, h.n_b_g2);
    p->vk.ic = ic;
    p->vk.n_public = h.n_ic - 1;
    p->block = block;
    p->block_bytes = block ? block_bytes : 0;
    p->g2_block = g2_block;
    p->g2_block_bytes = g2_block ? g2_bytes : 0;
    p->block_free = o->alloc ? o->free : NULL;
    p->block_ctx = o->alloc ? o->alloc_ctx : NULL;
    p->origin = (bellperson_origin)h.origin;
    p->domain = (bellperson_domain)h.domain;
    p->n_contributions = h.n_contributions;
    ic = NULL;
    block = NULL;
    g2_block = NULL;
out:
    close(fd);
    free(vk);
    free(sums);
    free(ic);
    if (block) bellperson_block_free(o, block, block_bytes);
    if (g2_block) bellperson_block_free(o, g2_block, g2_bytes);
    if (st) memset(p, 0, sizeof *p);
    return st;
}

cuzk_status srs_cache_read_info(const char *cache_path, srs_cache_info *info, cuzk_error *err) {
    if (!cache_path || !info) return ERR(err, CUZK_ERR_ARG, "srs_cache_read_info: NULL argument");
    memset(info, 0, sizeof *info);
    int fd = open(cache_path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO is not waited on */
    if (fd < 0) return ERR(err, CUZK_ERR_IO, "SRS cache %s: cannot open: %s", cache_path, strerror(errno));
    struct stat cs;
    disk_header h;
    cuzk_status st;
    if (fstat(fd, &cs) != 0) st = ERR(err, CUZK_ERR_IO, "SRS cache %s: cannot stat: %s", cache_path, strerror(errno));
    else if (!S_ISREG(cs.st_mode)) st = ERR(err, CUZK_ERR_IO, "SRS cache %s: not a regular file", cache_path);
    else st = header_read(fd, cache_path, &h, (uint64_t)cs.st_size, err);
    close(fd);
    if (st == CUZK_OK) info_of(info, &h);
    return st;
}

int srs_cache_describe(char *buf, size_t cap, const char *cache_path, const char *params_hint) {
    srs_cache_info i;
    cuzk_error e;
    memset(&e, 0, sizeof e);
    cuzk_status st = srs_cache_read_info(cache_path, &i, &e);
    if (st != CUZK_OK) return snprintf(buf, cap, "cuzk SRS cache (pre-decoded .params), unreadable: %s\n", e.msg);
    static const char *const org[] = {"plain .params", "bellman phase-2 MPC", "snarkjs MPC (zkey export bellman)"};
    time_t t = (time_t)i.params_mtime_sec;
    struct tm tm;
    char when[64] = "?";
    if (gmtime_r(&t, &tm)) strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return snprintf(buf, cap,
                    "cuzk SRS cache (pre-decoded bellperson .params), format version %u, points checked at the %s level "
                    "when made\n"
                    "made from: %s%s%llu bytes, modified %s (mtime %lld.%09lld), content digest %016llx\n"
                    "kind: %s, %u contributions\n"
                    "points: ic %u, h %u, l %u, a %u, b_g1 %u, b_g2 %u (decoded: points at infinity dropped)\n"
                    "give the .params itself to prove/verify/info: loads of it read this cache when it is valid "
                    "(cuzk srs-cache check)\n",
                    i.version, cuzk_check_level_str(i.check), params_hint ? params_hint : "",
                    params_hint ? ", " : "a .params of ", (unsigned long long)i.params_size, when,
                    (long long)i.params_mtime_sec, (long long)i.params_mtime_nsec,
                    (unsigned long long)i.params_digest, i.origin <= 2 ? org[i.origin] : "?", i.n_contributions,
                    i.n_ic, i.n_h, i.n_l, i.n_a, i.n_b_g1, i.n_b_g2);
}

uint64_t srs_cache_header_reseal(void *page, const uint32_t *counts) {
    disk_header h;
    memcpy(&h, page, sizeof h);
    if (counts) {
        h.n_ic = counts[0];
        h.n_h = counts[1];
        h.n_l = counts[2];
        h.n_a = counts[3];
        h.n_b_g1 = counts[4];
        h.n_b_g2 = counts[5];
        h.origin = counts[6];
        h.domain = counts[7];
        h.n_contributions = counts[8];
    }
    h.vk_bytes = 3 * sizeof(g1_affine) + 3 * sizeof(g2_affine) + (uint64_t)h.n_ic * sizeof(g1_affine);
    h.g1_bytes = ROUND64((uint64_t)h.n_h * sizeof(g1_affine)) + ROUND64((uint64_t)h.n_l * sizeof(g1_affine)) +
                 ROUND64((uint64_t)h.n_a * sizeof(g1_affine)) + ROUND64((uint64_t)h.n_b_g1 * sizeof(g1_affine));
    h.g2_bytes = ROUND64((uint64_t)h.n_b_g2 * sizeof(g2_affine));
    h.g1_off = ROUND_ALIGN(h.vk_off + h.vk_bytes);
    h.g2_off = ROUND_ALIGN(h.g1_off + h.g1_bytes);
    h.sums_off = h.g2_off + h.g2_bytes;
    h.n_sums = n_chunks(h.vk_bytes) + n_chunks(h.g1_bytes) + n_chunks(h.g2_bytes);
    h.file_bytes = h.sums_off + h.n_sums * 8;
    header_seal(&h);
    memcpy(page, &h, sizeof h);
    return h.file_bytes;
}

int srs_cache_is_cache(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -1;
    char m[sizeof MAGIC];
    int r = pread_full(fd, m, sizeof m, 0) && !memcmp(m, MAGIC, sizeof MAGIC);
    close(fd);
    return r;
}

/* ---- the last use, for the CLI's messages ---------------------------------------------------- */

static pthread_mutex_t g_last_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_last_kind;          /* 0 none, 1 used, 2 refused */
static char g_last_text[4400];   /* the cache's path (used) or the warning (refused) */

static void last_set(int kind, const char *text) {
    pthread_mutex_lock(&g_last_mu);
    g_last_kind = kind;
    snprintf(g_last_text, sizeof g_last_text, "%s", text ? text : "");
    pthread_mutex_unlock(&g_last_mu);
}

int srs_cache_last_use(char *buf, size_t cap) {
    pthread_mutex_lock(&g_last_mu);
    int k = g_last_kind;
    if (buf && cap) snprintf(buf, cap, "%s", k ? g_last_text : "");
    pthread_mutex_unlock(&g_last_mu);
    return k;
}

cuzk_status srs_cache_try_load(bellperson_params *p, const char *params_path, const bellperson_load_opts *o) {
    static const bellperson_load_opts dflt;
    if (!o) o = &dflt;
    const char *env = getenv("CUZK_SRS_CACHE");
    if (env && (!strcmp(env, "off") || !strcmp(env, "0"))) return CUZK_ERR_UNSUPPORTED;
    char def[4200];
    const char *cp = o->cache_path;
    if (!cp) {
        if (srs_cache_path(def, sizeof def, params_path) < 0) return CUZK_ERR_ARG;
        cp = def;
    }
    struct stat sb, ps;
    if (stat(cp, &sb) != 0) return CUZK_ERR_IO; /* no cache: the usual case, nothing to say */
    if (stat(params_path, &ps) != 0) return CUZK_ERR_IO; /* no .params: the decode says so, not the cache */
    cuzk_error e;
    memset(&e, 0, sizeof e);
    double t0 = now_ms();
    cuzk_check_level cache_level = CUZK_CHECK_CURVE;
    cuzk_status st = load_impl(p, cp, params_path, o, &cache_level, &e);
    double ms = now_ms() - t0;
    if (st == CUZK_OK) {
        last_set(1, cp);
        cuzk_log(CUZK_LOG_INFO, "SRS cache: %s loaded from %s in %.2f s (%.2f GB/s; points not checked again: "
                 "the cache recorded them checked at the %s level from this very file%s)", params_path, cp, ms / 1e3,
                 (double)sb.st_size / 1e6 / (ms > 0.001 ? ms : 0.001), cuzk_check_level_str(cache_level),
                 level_of(o->check) == CUZK_CHECK_NONE ? "; no check was asked for" : "");
        return CUZK_OK;
    }
    char w[4400];
    snprintf(w, sizeof w, "%s; decoding %s instead (remake the cache: cuzk srs-cache make %s)", e.msg, params_path,
             params_path);
    last_set(2, w);
    cuzk_log(CUZK_LOG_WARN, "%s", w);
    return st;
}
