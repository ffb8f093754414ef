/* The SRS store (store.h): tiers, budgets, reference counts, LRU eviction.
 *
 * Locking: s->mu guards every field of the store and of its entries, with one exception: while
 * an entry is `loading`, its loader thread reads the entry's copies without the lock (nothing
 * else may drop them then: evict answers BUSY and LRU passes over loading entries) and adds new
 * copies only under the lock (publish). Long work (map, check, decode, upload, free) never runs
 * under s->mu. s->progress_mu only serializes the progress callback of concurrent loads.
 *
 * Accounting per tier: used = held (copies present) + reserved (loads in flight) + freeing
 * (copies dropped whose memory is not released yet). reserve() grants bytes only when used stays
 * within the budget, so the memory of a tier never exceeds it.
 */
#include "srs/store.h"

#include "formats/mapped_file.h"
#include "formats/srs_cache.h"
#include "util/log.h"
#include "util/timer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct srs_entry {
    struct srs_entry *next;
    char *key;                       /* realpath of the file */
    char *given;                     /* the path as first given (matched by evict when the file is gone) */
    bool present[SRS_TIERS];         /* [DISK] unused */
    size_t bytes[SRS_TIERS];         /* bytes counted for each copy present */
    mapped_file map;                 /* MAPPED */
    bellperson_params params;        /* PINNED */
    void *d_handle;                  /* GPU */
    size_t file_bytes, host_bytes;   /* from the layout (0 until first read) */
    bool validated;                  /* points checked at the store's level once (a file whose
                                        check a valid cache vouched for at MAPPED is not: its
                                        next decode checks it, should the cache fail then) */
    bool g1_released;                /* PINNED view without its G1 queries (release_host_g1) */
    bool loading;
    uint32_t refs, refs_device;
    uint64_t last_use;
    uint64_t fail_gen;               /* bumped by every failed load; waiters compare */
    srs_tier fail_tier;
    cuzk_status fail_status;
    cuzk_error fail_err;
    double last_load_ms[SRS_TIERS];
} srs_entry;

typedef struct free_job {
    srs_store *s;
    srs_tier tier;
    size_t bytes;
    mapped_file map;
    bellperson_params params;
    void *d_handle;
    struct free_job *next;
} free_job;

struct srs_store {
    pthread_mutex_t mu;
    pthread_cond_t cv;               /* any change: a load ended, memory was freed, a handle released */
    pthread_mutex_t progress_mu;
    srs_store_opts o;
    srs_device_ops ops;
    bool have_ops;
    srs_entry *entries;
    size_t held[SRS_TIERS], used[SRS_TIERS], freeing[SRS_TIERS], peak[SRS_TIERS];
    uint64_t tick;
    uint64_t hits, misses, loads[SRS_TIERS], load_failures, evictions[SRS_TIERS], lru_evictions;
    double load_ms[SRS_TIERS];
};

const char *srs_tier_str(srs_tier t) {
    switch (t) {
    case SRS_TIER_DISK: return "disk";
    case SRS_TIER_MAPPED: return "mapped";
    case SRS_TIER_PINNED: return "pinned";
    case SRS_TIER_GPU: return "gpu";
    }
    return "?";
}

/* ---- freeing ----------------------------------------------------------------------------- */

static void job_free_memory(free_job *j) {
    switch (j->tier) {
    case SRS_TIER_MAPPED: mapped_file_close(&j->map); break;
    case SRS_TIER_PINNED: bellperson_params_free(&j->params); break;
    case SRS_TIER_GPU:
        if (j->s->ops.device_free) j->s->ops.device_free(j->s->ops.ctx, j->d_handle, j->bytes);
        break;
    case SRS_TIER_DISK: break;
    }
}

/* Frees the job's memory, then stops counting it. Lock not held. */
static void job_run(free_job *j) {
    srs_store *s = j->s;
    job_free_memory(j);
    pthread_mutex_lock(&s->mu);
    s->used[j->tier] -= j->bytes;
    s->freeing[j->tier] -= j->bytes;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    free(j);
}

static void job_reaper_fn(void *ctx, void *ptr) {
    (void)ctx;
    job_run(ptr);
}

/* Runs (no reaper) or queues (reaper) every job of the list. Lock not held. */
static void jobs_dispatch(srs_store *s, free_job *list) {
    while (list) {
        free_job *next = list->next;
        if (s->o.reaper) {
            reaper_item it;
            memset(&it, 0, sizeof it);
            it.ptr = list;
            it.bytes = list->bytes;
            it.free_fn = job_reaper_fn;
            reaper_push(s->o.reaper, &it);
        } else {
            job_run(list);
        }
        list = next;
    }
}

/* Takes the copy of e in tier t away (lock held): it is no longer present, its bytes move from
 * held to freeing, and a job that frees it is appended to *list (run after unlocking). Should the
 * job itself not be allocatable, the copy is freed right here, under the lock (slow, correct). */
static void detach(srs_store *s, srs_entry *e, srs_tier t, free_job ***tail) {
    free_job tmp, *j = calloc(1, sizeof *j);
    bool now = j == NULL;
    if (now) {
        j = &tmp;
        memset(j, 0, sizeof *j);
    }
    j->s = s;
    j->tier = t;
    j->bytes = e->bytes[t];
    if (t == SRS_TIER_MAPPED) {
        j->map = e->map;
        memset(&e->map, 0, sizeof e->map);
    } else if (t == SRS_TIER_PINNED) {
        j->params = e->params;
        memset(&e->params, 0, sizeof e->params);
    } else if (t == SRS_TIER_GPU) {
        j->d_handle = e->d_handle;
        e->d_handle = NULL;
    }
    e->present[t] = false;
    e->bytes[t] = 0;
    if (t == SRS_TIER_PINNED) e->g1_released = false;
    s->held[t] -= j->bytes;
    s->evictions[t]++;
    if (now) {
        cuzk_log(CUZK_LOG_WARN, "srs store: out of memory for a free job; freeing %zu bytes under the lock", j->bytes);
        job_free_memory(j);
        s->used[t] -= j->bytes;
        return;
    }
    s->freeing[t] += j->bytes;
    **tail = j;
    *tail = &j->next;
}

/* Drops the copies of e in tiers >= from, hottest first (GPU before the PINNED view it was made of;
 * a lean PINNED view goes with its GPU copy). */
static void drop_from(srs_store *s, srs_entry *e, srs_tier from, free_job ***tail) {
    if (from < SRS_TIER_MAPPED) from = SRS_TIER_MAPPED;
    if (from == SRS_TIER_GPU && e->g1_released) from = SRS_TIER_PINNED;
    for (int t = SRS_TIER_GPU; t >= (int)from; t--)
        if (e->present[t]) detach(s, e, (srs_tier)t, tail);
}

/* ---- budgets ----------------------------------------------------------------------------- */

/* Drops only the copy in tier t (and the GPU copy made from a PINNED view; and a lean PINNED
 * view with its GPU copy: without its G1 queries it cannot make another). */
static void drop_one(srs_store *s, srs_entry *e, srs_tier t, free_job ***tail) {
    if (t == SRS_TIER_PINNED && e->present[SRS_TIER_GPU]) detach(s, e, SRS_TIER_GPU, tail);
    detach(s, e, t, tail);
    if (t == SRS_TIER_GPU && e->g1_released && e->present[SRS_TIER_PINNED]) detach(s, e, SRS_TIER_PINNED, tail);
}

static bool evictable(const srs_entry *e, srs_tier t) {
    if (e->loading || !e->present[t]) return false;
    if (t == SRS_TIER_PINNED) return e->refs == 0;
    if (t == SRS_TIER_GPU) return e->refs_device == 0;
    return true; /* MAPPED: handles never use the mapping */
}

static srs_entry *lru_victim(srs_store *s, srs_tier t) {
    srs_entry *best = NULL;
    for (srs_entry *e = s->entries; e; e = e->next)
        if (evictable(e, t) && (!best || e->last_use < best->last_use)) best = e;
    return best;
}

static cuzk_status no_room(srs_store *s, srs_tier t, size_t bytes, const char *why, cuzk_error *err) {
    return ERR(err, t == SRS_TIER_GPU ? CUZK_ERR_NOMEM_DEVICE : CUZK_ERR_NOMEM,
               "SRS store: the %s tier (budget %zu bytes, %zu in use) cannot take %zu more bytes: %s", srs_tier_str(t),
               s->o.budget_bytes[t], s->used[t], bytes, why);
}

/* Reserves `bytes` of tier t for a load, evicting least recently used copies that nobody needs
 * until they fit; waits while copies already dropped are still being freed. Lock not held. */
static cuzk_status reserve(srs_store *s, srs_tier t, size_t bytes, cuzk_error *err) {
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        size_t budget = s->o.budget_bytes[t];
        if (budget == 0 || (bytes <= budget && s->used[t] <= budget - bytes)) {
            s->used[t] += bytes;
            if (s->used[t] > s->peak[t]) s->peak[t] = s->used[t];
            break;
        }
        if (bytes > budget) {
            st = no_room(s, t, bytes, "larger than the whole budget", err);
            break;
        }
        free_job *list = NULL, **tail = &list;
        srs_entry *v;
        while (s->used[t] - s->freeing[t] + bytes > budget && (v = lru_victim(s, t)) != NULL) {
            drop_one(s, v, t, &tail);
            s->lru_evictions++;
        }
        if (list) {
            pthread_mutex_unlock(&s->mu);
            jobs_dispatch(s, list);
            pthread_mutex_lock(&s->mu);
            continue;
        }
        if (s->used[t] - s->freeing[t] + bytes <= budget) {
            pthread_cond_wait(&s->cv, &s->mu); /* frees in flight will make the room */
            continue;
        }
        st = no_room(s, t, bytes, "the rest is held by SRSs in use or being loaded", err);
        break;
    }
    pthread_mutex_unlock(&s->mu);
    return st;
}

static void unreserve(srs_store *s, srs_tier t, size_t bytes) {
    pthread_mutex_lock(&s->mu);
    s->used[t] -= bytes;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
}

/* ---- loading (the entry is `loading`; lock not held) ------------------------------------- */

static void store_progress(void *user, const char *what, uint64_t done, uint64_t total) {
    srs_store *s = user;
    pthread_mutex_lock(&s->progress_mu);
    s->o.progress(s->o.progress_user, what, done, total);
    pthread_mutex_unlock(&s->progress_mu);
}

static void load_opts(srs_store *s, const srs_entry *e, bellperson_load_opts *lo) {
    memset(lo, 0, sizeof *lo);
    lo->check = e->validated ? CUZK_CHECK_NONE : s->o.check;
    lo->nthreads = s->o.nthreads;
    /* the store's own mapping: pages read are dropped from the process, the page cache keeps them */
    lo->release_input = s->o.release_host_g1;
    lo->g2_apart = s->o.release_host_g1;
    if (s->o.progress) {
        lo->progress = store_progress;
        lo->progress_user = s;
    }
}

/* Records a new copy of e in tier t (lock taken here). */
static void publish(srs_store *s, srs_entry *e, srs_tier t, size_t bytes, double ms) {
    e->present[t] = true;
    e->bytes[t] = bytes;
    e->last_load_ms[t] = ms;
    e->validated = true;
    s->held[t] += bytes;
    s->loads[t]++;
    s->load_ms[t] += ms;
}

/* Whether e's file has a pre-decoded cache (src/formats/srs_cache.h) that serves the store's
 * check level; its reason is logged when one is there but refused. */
static bool cache_vouches(srs_store *s, srs_entry *e) {
    const char *env = getenv("CUZK_SRS_CACHE");
    if (env && (!strcmp(env, "off") || !strcmp(env, "0"))) return false;
    char cp[4200];
    if (srs_cache_path(cp, sizeof cp, e->key) < 0 || access(cp, F_OK) != 0) return false;
    cuzk_error ce;
    memset(&ce, 0, sizeof ce);
    if (srs_cache_probe(cp, e->key, s->o.check, NULL, &ce) == CUZK_OK) return true;
    cuzk_log(CUZK_LOG_WARN, "%s; the store decodes %s instead", ce.msg, e->given);
    return false;
}

static cuzk_status load_mapped(srs_store *s, srs_entry *e, cuzk_error *err) {
    double t0 = now_ms();
    mapped_file f;
    bellperson_layout lay;
    bellperson_load_opts lo;
    char what[1100];
    cuzk_status st;
    bool vouched = false;
    snprintf(what, sizeof what, "bellperson params %s", e->given);
    if ((st = mapped_file_open(&f, e->key, err))) return st;
    if ((st = bellperson_params_layout(&lay, f.m_data, f.size_bytes, what, err))) goto fail;
    if ((st = reserve(s, SRS_TIER_MAPPED, f.size_bytes, err))) goto fail;
    load_opts(s, e, &lo);
    if (lo.check != CUZK_CHECK_NONE && cache_vouches(s, e)) {
        /* a valid pre-decoded cache made from this very file at the store's level (or higher):
         * its points need no second check, and the PINNED load will read the cache instead */
        cuzk_log(CUZK_LOG_INFO, "SRS store: %s has a valid pre-decoded cache: its points are not checked again", e->given);
        vouched = true;
    } else if (lo.check != CUZK_CHECK_NONE) {
        st = bellperson_params_decode_fd(NULL, f.m_data, f.size_bytes, -1, what, &lo, err);
        if (st) {
            unreserve(s, SRS_TIER_MAPPED, f.size_bytes);
            goto fail;
        }
    } else if (!vouched) {
        (void)madvise((void *)f.m_data, f.size_bytes, MADV_WILLNEED);
    }
    pthread_mutex_lock(&s->mu);
    e->map = f;
    e->file_bytes = f.size_bytes;
    e->host_bytes = lay.host_bytes;
    publish(s, e, SRS_TIER_MAPPED, f.size_bytes, now_ms() - t0);
    if (vouched) e->validated = false; /* not checked here: load_pinned reads the cache, or checks */
    pthread_mutex_unlock(&s->mu);
    return CUZK_OK;
fail:
    mapped_file_close(&f);
    return st;
}

static cuzk_status load_pinned(srs_store *s, srs_entry *e, cuzk_error *err) {
    double t0 = now_ms();
    mapped_file f;
    bellperson_layout lay;
    bellperson_load_opts lo;
    bellperson_params p;
    char what[1100];
    cuzk_status st;
    memset(&f, 0, sizeof f);
    snprintf(what, sizeof what, "bellperson params %s", e->given);
    const mapped_file *src = &e->map;
    if (!e->present[SRS_TIER_MAPPED]) {
        if ((st = mapped_file_open(&f, e->key, err))) return st;
        src = &f;
    }
    if ((st = bellperson_params_layout(&lay, src->m_data, src->size_bytes, what, err))) goto out;
    if ((st = reserve(s, SRS_TIER_PINNED, lay.host_bytes, err))) goto out;
    load_opts(s, e, &lo);
    if (s->have_ops && s->ops.pinned_alloc) {
        lo.alloc = s->ops.pinned_alloc;
        lo.free = s->ops.pinned_free;
        lo.alloc_ctx = s->ops.ctx;
    }
    /* the pre-decoded cache first (it is checked against the file and at the store's level) */
    if (srs_cache_try_load(&p, e->key, &lo) == CUZK_OK) {
        pthread_mutex_lock(&s->mu);
        e->params = p;
        e->file_bytes = src->size_bytes;
        e->host_bytes = lay.host_bytes;
        publish(s, e, SRS_TIER_PINNED, lay.host_bytes, now_ms() - t0);
        pthread_mutex_unlock(&s->mu);
        goto out;
    }
    int fd = open(e->key, O_RDONLY | O_CLOEXEC); /* the points with pread on all threads (no faults) */
    st = bellperson_params_decode_fd(&p, src->m_data, src->size_bytes, fd, what, &lo, err);
    if (fd >= 0) close(fd);
    if (st) {
        unreserve(s, SRS_TIER_PINNED, lay.host_bytes);
        goto out;
    }
    pthread_mutex_lock(&s->mu);
    e->params = p;
    e->file_bytes = src->size_bytes;
    e->host_bytes = lay.host_bytes;
    publish(s, e, SRS_TIER_PINNED, lay.host_bytes, now_ms() - t0);
    pthread_mutex_unlock(&s->mu);
out:
    mapped_file_close(&f);
    return st;
}

static size_t default_device_bytes(const bellperson_params *p) {
    return ((size_t)p->n_h + p->n_l + p->n_a + p->n_b_g1) * sizeof(g1_affine);
}

static cuzk_status load_gpu(srs_store *s, srs_entry *e, cuzk_error *err) {
    double t0 = now_ms();
    size_t need = s->ops.device_bytes ? s->ops.device_bytes(s->ops.ctx, &e->params) : default_device_bytes(&e->params);
    void *d = NULL;
    size_t got = 0;
    cuzk_status st;
    if ((st = reserve(s, SRS_TIER_GPU, need, err))) return st;
    if ((st = s->ops.upload(s->ops.ctx, &d, &got, &e->params, err))) {
        unreserve(s, SRS_TIER_GPU, need);
        return st;
    }
    if (!d || got > need) {
        if (d && s->ops.device_free) s->ops.device_free(s->ops.ctx, d, got);
        unreserve(s, SRS_TIER_GPU, need);
        return ERR(err, d ? CUZK_ERR_NOMEM_DEVICE : CUZK_ERR_DEVICE,
                   d ? "SRS store: upload of %s took %zu device bytes, more than the %zu device_bytes promised"
                     : "SRS store: upload of %s returned no device handle (%zu / %zu bytes)",
                   e->given, got, need);
    }
    free_job *list = NULL;
    pthread_mutex_lock(&s->mu);
    s->used[SRS_TIER_GPU] -= need - got;
    e->d_handle = d;
    publish(s, e, SRS_TIER_GPU, got, now_ms() - t0);
    if (s->o.release_host_g1 && !e->g1_released && e->refs == e->refs_device) {
        /* the G1 queries live on the device now: their host copy goes (off this thread with a
         * reaper); no PINNED-only handle holds the view (they would need the whole of it) */
        free_job *j = calloc(1, sizeof *j);
        size_t moved = j ? bellperson_params_take_g1(&e->params, &j->params) : 0;
        if (moved) {
            j->s = s;
            j->tier = SRS_TIER_PINNED;
            j->bytes = moved;
            e->bytes[SRS_TIER_PINNED] -= moved;
            s->held[SRS_TIER_PINNED] -= moved;
            s->freeing[SRS_TIER_PINNED] += moved;
            e->g1_released = true;
            list = j;
        } else {
            free(j);
        }
    }
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    if (list) {
        cuzk_log(CUZK_LOG_INFO, "SRS store: %s is on the GPU: its host copy of the G1 queries (%.2f GB) is released",
                 e->given, (double)list->bytes / 1e9);
        jobs_dispatch(s, list);
    }
    return CUZK_OK;
}

static cuzk_status load_to(srs_store *s, srs_entry *e, srs_tier tier, cuzk_error *err) {
    cuzk_status st;
    if (tier == SRS_TIER_MAPPED) return e->present[SRS_TIER_MAPPED] ? CUZK_OK : load_mapped(s, e, err);
    if (!e->present[SRS_TIER_PINNED] && (st = load_pinned(s, e, err))) return st;
    if (tier == SRS_TIER_GPU && !e->present[SRS_TIER_GPU]) return load_gpu(s, e, err);
    return CUZK_OK;
}

/* ---- entries ----------------------------------------------------------------------------- */

/* The entry for key (a realpath) or, when key is NULL, one first named `given`. Lock held. */
static srs_entry *find(srs_store *s, const char *key, const char *given) {
    for (srs_entry *e = s->entries; e; e = e->next) {
        if (key && !strcmp(e->key, key)) return e;
        if (!key && given && (!strcmp(e->given, given) || !strcmp(e->key, given))) return e;
    }
    return NULL;
}

static cuzk_status resolve(char **key, const char *path, cuzk_error *err) {
    *key = realpath(path, NULL);
    if (!*key) {
        int e = errno;
        return ERR(err, e == ENOMEM ? CUZK_ERR_NOMEM : CUZK_ERR_IO, "SRS store: %s: %s", path, strerror(e));
    }
    return CUZK_OK;
}

/* acquire (take_ref) and preload: make path present at tier. */
static cuzk_status make_present(srs_store *s, srs_handle *out, const char *path, srs_tier tier, cuzk_error *err) {
    char *key;
    cuzk_status st;
    if ((st = resolve(&key, path, err))) return st;
    pthread_mutex_lock(&s->mu);
    srs_entry *e = find(s, key, NULL);
    if (e) {
        free(key);
    } else {
        e = calloc(1, sizeof *e);
        char *given = strdup(path);
        if (!e || !given) {
            free(e);
            free(given);
            free(key);
            pthread_mutex_unlock(&s->mu);
            return ERR(err, CUZK_ERR_NOMEM, "SRS store: cannot allocate an entry for %s", path);
        }
        e->key = key;
        e->given = given;
        e->next = s->entries;
        s->entries = e;
    }
    bool missed = false;
    uint64_t seen_gen = e->fail_gen;
    while (!e->present[tier]) {
        if (!missed) {
            missed = true;
            s->misses++;
        }
        if (e->loading) {
            pthread_cond_wait(&s->cv, &s->mu);
            if (e->fail_gen != seen_gen) {
                seen_gen = e->fail_gen;
                /* the load we waited for failed on the way to our tier: same error for us */
                if (e->fail_tier <= tier || e->fail_status == CUZK_ERR_FORMAT || e->fail_status == CUZK_ERR_POINT ||
                    e->fail_status == CUZK_ERR_IO) {
                    st = e->fail_status;
                    if (err) *err = e->fail_err;
                    pthread_mutex_unlock(&s->mu);
                    return st;
                }
            }
            continue;
        }
        e->loading = true;
        pthread_mutex_unlock(&s->mu);
        cuzk_error le;
        memset(&le, 0, sizeof le);
        st = load_to(s, e, tier, &le);
        pthread_mutex_lock(&s->mu);
        e->loading = false;
        pthread_cond_broadcast(&s->cv);
        if (st) {
            e->fail_gen++;
            e->fail_tier = tier;
            e->fail_status = st;
            e->fail_err = le;
            s->load_failures++;
            pthread_mutex_unlock(&s->mu);
            if (err) *err = le;
            return st;
        }
    }
    if (tier == SRS_TIER_PINNED && out && e->g1_released) {
        pthread_mutex_unlock(&s->mu);
        return ERR(err, CUZK_ERR_UNSUPPORTED,
                   "SRS store: %s is on the GPU and its host copy of the G1 queries was released "
                   "(release_host_g1): acquire it at the GPU tier, or evict it first", path);
    }
    if (!missed) s->hits++;
    e->last_use = ++s->tick;
    if (out) {
        e->refs++;
        out->params = &e->params;
        out->tier = tier;
        out->entry_ = e;
        if (tier == SRS_TIER_GPU) {
            e->refs_device++;
            out->device = e->d_handle;
            out->device_bytes = e->bytes[SRS_TIER_GPU];
        }
    }
    pthread_mutex_unlock(&s->mu);
    return CUZK_OK;
}

/* ---- API --------------------------------------------------------------------------------- */

cuzk_status srs_store_create(srs_store **out, const srs_store_opts *opts, cuzk_error *err) {
    if (!out) return ERR(err, CUZK_ERR_ARG, "srs_store_create: NULL out");
    *out = NULL;
    srs_store_opts dflt;
    memset(&dflt, 0, sizeof dflt);
    const srs_store_opts *o = opts ? opts : &dflt;
    if ((unsigned)o->check > CUZK_CHECK_FULL) return ERR(err, CUZK_ERR_ARG, "srs_store_create: check level %d", (int)o->check);
    srs_store *s = calloc(1, sizeof *s);
    if (!s) return ERR(err, CUZK_ERR_NOMEM, "srs_store_create: cannot allocate the store");
    s->o = *o;
    if (s->o.check == CUZK_CHECK_DEFAULT) s->o.check = CUZK_CHECK_CURVE;
    s->o.budget_bytes[SRS_TIER_DISK] = 0;
    if (o->ops) {
        s->ops = *o->ops;
        s->have_ops = true;
    }
    s->o.ops = NULL; /* the copy in s->ops is what counts */
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    pthread_mutex_init(&s->progress_mu, NULL);
    *out = s;
    return CUZK_OK;
}

cuzk_status srs_store_destroy(srs_store *s) {
    if (!s) return CUZK_OK;
    pthread_mutex_lock(&s->mu);
    for (srs_entry *e = s->entries; e; e = e->next) {
        if (e->refs || e->loading) {
            pthread_mutex_unlock(&s->mu);
            return CUZK_ERR_BUSY;
        }
    }
    free_job *list = NULL, **tail = &list;
    for (srs_entry *e = s->entries; e; e = e->next) drop_from(s, e, SRS_TIER_MAPPED, &tail);
    pthread_mutex_unlock(&s->mu);
    jobs_dispatch(s, list);
    if (s->o.reaper) reaper_drain(s->o.reaper);
    srs_entry *e = s->entries;
    while (e) {
        srs_entry *next = e->next;
        free(e->key);
        free(e->given);
        free(e);
        e = next;
    }
    pthread_mutex_destroy(&s->progress_mu);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
    return CUZK_OK;
}

cuzk_status srs_store_acquire(srs_store *s, srs_handle *out, const char *path, srs_tier tier, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!s || !out || !path) return ERR(err, CUZK_ERR_ARG, "srs_store_acquire: NULL argument");
    if (tier != SRS_TIER_PINNED && tier != SRS_TIER_GPU)
        return ERR(err, CUZK_ERR_ARG, "srs_store_acquire: tier %s (a handle needs pinned or gpu)", srs_tier_str(tier));
    if (tier == SRS_TIER_GPU && (!s->have_ops || !s->ops.upload))
        return ERR(err, CUZK_ERR_UNSUPPORTED, "SRS store: no GPU tier (no upload function)");
    return make_present(s, out, path, tier, err);
}

void srs_store_release(srs_store *s, srs_handle *h) {
    if (!s || !h || !h->entry_) return;
    pthread_mutex_lock(&s->mu);
    srs_entry *e = h->entry_;
    e->refs--;
    if (h->tier == SRS_TIER_GPU) e->refs_device--;
    e->last_use = ++s->tick;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    memset(h, 0, sizeof *h);
}

cuzk_status srs_store_preload(srs_store *s, const char *path, srs_tier tier, cuzk_error *err) {
    if (!s || !path) return ERR(err, CUZK_ERR_ARG, "srs_store_preload: NULL argument");
    if (tier != SRS_TIER_MAPPED && tier != SRS_TIER_PINNED && tier != SRS_TIER_GPU)
        return ERR(err, CUZK_ERR_ARG, "srs_store_preload: tier %s", srs_tier_str(tier));
    if (tier == SRS_TIER_GPU && (!s->have_ops || !s->ops.upload))
        return ERR(err, CUZK_ERR_UNSUPPORTED, "SRS store: no GPU tier (no upload function)");
    return make_present(s, NULL, path, tier, err);
}

cuzk_status srs_store_evict(srs_store *s, const char *path, srs_tier from, cuzk_error *err) {
    if (!s || !path) return ERR(err, CUZK_ERR_ARG, "srs_store_evict: NULL argument");
    if ((unsigned)from > SRS_TIER_GPU) return ERR(err, CUZK_ERR_ARG, "srs_store_evict: tier %d", (int)from);
    char *key = realpath(path, NULL);
    pthread_mutex_lock(&s->mu);
    srs_entry *e = find(s, key, NULL);
    if (!e) e = find(s, NULL, path);
    free(key);
    if (!e) {
        pthread_mutex_unlock(&s->mu);
        return CUZK_OK;
    }
    const char *busy = NULL;
    if (e->loading) busy = "it is being loaded";
    else if (from <= SRS_TIER_PINNED && e->present[SRS_TIER_PINNED] && e->refs)
        busy = "handles hold its host view";
    else if (e->present[SRS_TIER_GPU] && e->refs_device)
        busy = "handles hold its device copy";
    if (busy) {
        cuzk_status st = ERR(err, CUZK_ERR_BUSY, "SRS store: cannot evict %s from %s: %s (%u handles)", e->given,
                             srs_tier_str(from), busy, e->refs);
        pthread_mutex_unlock(&s->mu);
        return st;
    }
    free_job *list = NULL, **tail = &list;
    drop_from(s, e, from, &tail);
    pthread_mutex_unlock(&s->mu);
    jobs_dispatch(s, list);
    return CUZK_OK;
}

void srs_store_get_stats(srs_store *s, srs_store_stats *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!s) return;
    pthread_mutex_lock(&s->mu);
    for (int t = 0; t < SRS_TIERS; t++) {
        out->budget_bytes[t] = s->o.budget_bytes[t];
        out->held_bytes[t] = s->held[t];
        out->used_bytes[t] = s->used[t];
        out->peak_used_bytes[t] = s->peak[t];
        out->loads[t] = s->loads[t];
        out->load_ms[t] = s->load_ms[t];
        out->evictions[t] = s->evictions[t];
    }
    for (srs_entry *e = s->entries; e; e = e->next) {
        out->entries++;
        if (e->refs) out->in_use++;
        out->handles += e->refs;
        if (e->loading) out->loading++;
        if (!e->present[SRS_TIER_MAPPED] && !e->present[SRS_TIER_PINNED] && !e->present[SRS_TIER_GPU])
            out->held_bytes[SRS_TIER_DISK] += e->file_bytes;
    }
    out->hits = s->hits;
    out->misses = s->misses;
    out->load_failures = s->load_failures;
    out->lru_evictions = s->lru_evictions;
    pthread_mutex_unlock(&s->mu);
}

cuzk_status srs_store_entry_info(srs_store *s, const char *path, srs_entry_info *out, cuzk_error *err) {
    if (out) memset(out, 0, sizeof *out);
    if (!s || !path || !out) return ERR(err, CUZK_ERR_ARG, "srs_store_entry_info: NULL argument");
    char *key = realpath(path, NULL);
    pthread_mutex_lock(&s->mu);
    srs_entry *e = find(s, key, NULL);
    if (!e) e = find(s, NULL, path);
    free(key);
    if (!e) {
        pthread_mutex_unlock(&s->mu);
        errno = ENOENT;
        return ERR(err, CUZK_ERR_IO, "SRS store: %s is not known", path);
    }
    for (int t = SRS_TIER_MAPPED; t < SRS_TIERS; t++) {
        out->present[t] = e->present[t];
        out->last_load_ms[t] = e->last_load_ms[t];
    }
    out->present[SRS_TIER_DISK] = !e->present[SRS_TIER_MAPPED] && !e->present[SRS_TIER_PINNED] && !e->present[SRS_TIER_GPU];
    out->loading = e->loading;
    out->host_g1_released = e->g1_released;
    out->pinned_bytes = e->present[SRS_TIER_PINNED] ? e->bytes[SRS_TIER_PINNED] : 0;
    out->refs = e->refs;
    out->refs_device = e->refs_device;
    out->file_bytes = e->file_bytes;
    out->host_bytes = e->host_bytes;
    out->device_bytes = e->bytes[SRS_TIER_GPU];
    out->last_use = e->last_use;
    pthread_mutex_unlock(&s->mu);
    return CUZK_OK;
}
