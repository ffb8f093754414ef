/* cuzkd configuration: TOML (toml_json.cc) -> jansson tree -> validated struct. */
#include "config.h"
#include "http.h"

#include "dlog.h"
#include "toml_json.h"

#include <errno.h>
#include <jansson.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* What a configuration value is, for an error message: a string quoted (at most 40 characters,
 * control characters and quotes as \xNN), else its TOML type. */
static const char *given(json_t *v, char *buf, size_t cap) {
    if (!json_is_string(v)) {
        snprintf(buf, cap, "%s", json_is_integer(v) ? "an integer" : json_is_real(v) ? "a number" : json_is_boolean(v) ? "a boolean"
                                 : json_is_array(v) ? "an array" : json_is_object(v) ? "a table" : "a value");
        return buf;
    }
    const char *s = json_string_value(v);
    size_t o = 0;
    if (cap < 8) return "";
    buf[o++] = '"';
    for (size_t i = 0; s[i] && o + 6 < cap; i++) {
        if (i == 40) { o += (size_t)snprintf(buf + o, cap - o, "..."); break; }
        const unsigned char ch = (unsigned char)s[i];
        if (ch < 0x20 || ch == 0x7f || ch == '"' || ch == '\\') o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", ch);
        else buf[o++] = (char)ch;
    }
    if (o + 2 > cap) o = cap - 2;
    buf[o++] = '"';
    buf[o] = 0;
    return buf;
}

/* Keys a table may hold; anything else is an error naming it. */
static int check_keys(json_t *obj, const char *table, const char *const *allowed, const char *file, char *err,
                      size_t cap) {
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        int ok = 0;
        for (int i = 0; allowed[i]; i++)
            if (strcmp(k, allowed[i]) == 0) ok = 1;
        if (!ok) return fail(err, cap, "%s: unknown key %s%s%s", file, table, *table ? "." : "", k);
    }
    return 0;
}

/* Byte sizes: an integer, or a string "64GiB", "512MiB", "1.5GB", "1024". -1 malformed, -2 over
 * INT64_MAX bytes (8 EiB: the largest a size keeps its meaning in /status and the budgets). */
static int get_bytes(json_t *v, uint64_t *out) {
    if (json_is_integer(v)) {
        if (json_integer_value(v) < 0) return -1;
        *out = (uint64_t)json_integer_value(v);
        return 0;
    }
    if (!json_is_string(v)) return -1;
    const char *s = json_string_value(v);
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno || x < 0) return -1;
    while (*end == ' ') end++;
    static const struct { const char *suf; double mul; } u[] = {
        {"", 1}, {"B", 1}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
        {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        if (strcmp(end, u[i].suf) == 0) {
            double b = x * u[i].mul;
            if (!(b < 9223372036854775807.0)) return -2; /* also inf and nan */
            *out = (uint64_t)b;
            return 0;
        }
    return -1;
}

static int get_uint(json_t *t, const char *key, uint64_t max, uint64_t *out, const char *table, const char *file,
                    char *err, size_t cap) {
    json_t *v = json_object_get(t, key);
    if (!v) return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) > max)
        return fail(err, cap, "%s: %s.%s: expected an integer from 0 to %llu", file, table, key,
                    (unsigned long long)max);
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

static int get_str(json_t *t, const char *key, char **out, const char *table, const char *file, char *err,
                   size_t cap) {
    json_t *v = json_object_get(t, key);
    if (!v) return 0;
    if (!json_is_string(v)) return fail(err, cap, "%s: %s.%s: expected a string", file, table, key);
    free(*out);
    *out = strdup(json_string_value(v));
    return 0;
}

static int check_readable(const char *path, const char *what, const char *file, char *err, size_t cap) {
    struct stat st;
    if (stat(path, &st) != 0)
        return fail(err, cap, "%s: %s: %s: %s", file, what, path, strerror(errno));
    if (!S_ISREG(st.st_mode)) return fail(err, cap, "%s: %s: %s: not a regular file", file, what, path);
    if (access(path, R_OK) != 0) return fail(err, cap, "%s: %s: %s: %s", file, what, path, strerror(errno));
    return 0;
}

/* PoRep ids: Curio's porep-32g/64g, and the small sizes (tests); the cuzk circuit of the same name */
static const struct porep_id {
    const char *id;
    uint64_t sector_size;
} POREP_IDS[] = {{"porep-2k", 2048ull},        {"porep-8m", 8ull << 20}, {"porep-512m", 512ull << 20},
                 {"porep-32g", 32ull << 30},   {"porep-64g", 64ull << 30}, {NULL, 0}};

const char *dcfg_porep_id(uint64_t sector_size) {
    for (int i = 0; POREP_IDS[i].id; i++)
        if (POREP_IDS[i].sector_size == sector_size) return POREP_IDS[i].id;
    return NULL;
}

/* SnapDeals ids: Curio's snap-32g/64g, and the small sizes (tests); the cuzk circuit of the same name */
static const struct snap_id {
    const char *id;
    uint64_t sector_size;
} SNAP_IDS[] = {{"snap-2k", 2048ull},        {"snap-8m", 8ull << 20}, {"snap-512m", 512ull << 20},
                {"snap-32g", 32ull << 30},   {"snap-64g", 64ull << 30}, {NULL, 0}};

const char *dcfg_snap_id(uint64_t sector_size) {
    for (int i = 0; SNAP_IDS[i].id; i++)
        if (SNAP_IDS[i].sector_size == sector_size) return SNAP_IDS[i].id;
    return NULL;
}

/* PoSt ids: Curio's 32g/64g, and the small sizes rust-fil-proofs also has (tests) */
static const struct post_id {
    const char *id, *circuit;
    int kind;
    uint64_t sector_size;
} POST_IDS[] = {
    {"wpost-2k", "window-post-2k", 3, 2048ull},           {"wpost-8m", "window-post-8m", 3, 8ull << 20},
    {"wpost-512m", "window-post-512m", 3, 512ull << 20},  {"wpost-32g", "window-post-32g", 3, 32ull << 30},
    {"wpost-64g", "window-post-64g", 3, 64ull << 30},     {"winning-2k", "winning-post-2k", 4, 2048ull},
    {"winning-8m", "winning-post-8m", 4, 8ull << 20},     {"winning-512m", "winning-post-512m", 4, 512ull << 20},
    {"winning-32g", "winning-post-32g", 4, 32ull << 30},  {"winning-64g", "winning-post-64g", 4, 64ull << 30},
    {NULL, NULL, 0, 0}};

const char *dcfg_post_id(int kind, uint64_t sector_size) {
    for (int i = 0; POST_IDS[i].id; i++)
        if (POST_IDS[i].kind == kind && POST_IDS[i].sector_size == sector_size) return POST_IDS[i].id;
    return NULL;
}

static int valid_id(const char *s) {
    if (!*s || strlen(s) > 128) return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
              *p == '_' || *p == '.'))
            return 0;
    return 1;
}

int dcfg_load(dcfg *c, const char *path, char *err, size_t cap) {
    memset(c, 0, sizeof *c);
    if (cap) err[0] = 0;
    c->socket_mode = -1;
    c->max_message_bytes = 128u << 20;
    c->log_level = DLOG_INFO;
    c->backend = strdup("auto");
    c->workers = 1;
    c->result_retention_ms = 600000;
    c->max_retained = 10000;
    c->max_queued = 100000;
    c->max_waiting_calls = 4096;
    c->grace_ms = 30000;
    c->srs_idle_evict_ms = 300000;

    struct stat cst;
    if (stat(path, &cst) == 0 && S_ISDIR(cst.st_mode)) {
        fail(err, cap, "%s: is a directory (--config needs a TOML file)", path);
        dcfg_free(c);
        return -1;
    }
    json_t *root = toml_json_load_file(path, err, cap);
    if (!root) {
        dcfg_free(c);
        return -1;
    }
    int rc = -1;
    static const char *const top_keys[] = {"server", "log", "engine", "jobs", "srs", "circuits", "debug", NULL};
    if (check_keys(root, "", top_keys, path, err, cap)) goto out;

    json_t *t;
    if ((t = json_object_get(root, "server"))) {
        static const char *const k[] = {"listen", "http", "socket_mode", "max_message_bytes", NULL};
        if (!json_is_object(t)) { fail(err, cap, "%s: server: expected a table", path); goto out; }
        if (check_keys(t, "server", k, path, err, cap)) goto out;
        json_t *l = json_object_get(t, "listen");
        if (l) {
            if (json_is_string(l)) {
                c->listen = calloc(1, sizeof(char *));
                c->listen[0] = strdup(json_string_value(l));
                c->n_listen = 1;
            } else if (json_is_array(l)) {
                if (json_array_size(l) == 0) {
                    fail(err, cap, "%s: server.listen: an empty list (name at least one address, or leave the key out "
                                   "for the default unix:///run/curio/cuzk.sock)", path);
                    goto out;
                }
                c->listen = calloc(json_array_size(l) + 1, sizeof(char *));
                size_t i;
                json_t *a;
                json_array_foreach(l, i, a) {
                    if (!json_is_string(a) || !*json_string_value(a)) {
                        fail(err, cap, "%s: server.listen[%zu]: expected an address string", path, i);
                        goto out;
                    }
                    c->listen[c->n_listen++] = strdup(json_string_value(a));
                }
            } else {
                fail(err, cap, "%s: server.listen: expected an address or a list of addresses", path);
                goto out;
            }
        }
        if (get_str(t, "http", &c->http, "server", path, err, cap)) goto out;
        if (c->http && !*c->http) { free(c->http); c->http = NULL; }
        json_t *m = json_object_get(t, "socket_mode");
        if (m) {
            char *end;
            if (!json_is_string(m) || (c->socket_mode = (int)strtol(json_string_value(m), &end, 8), *end) ||
                c->socket_mode < 0 || c->socket_mode > 0777) {
                fail(err, cap, "%s: server.socket_mode: expected an octal string such as \"0660\"", path);
                goto out;
            }
        }
        json_t *mb = json_object_get(t, "max_message_bytes");
        if (mb) {
            uint64_t b;
            if (get_bytes(mb, &b) || b < (1u << 20) || b > 0x7fffffffu) {
                fail(err, cap, "%s: server.max_message_bytes: expected a size from 1MiB to 2GiB", path);
                goto out;
            }
            c->max_message_bytes = b;
        }
    }
    if (c->n_listen == 0) {
        c->listen = calloc(1, sizeof(char *));
        c->listen[0] = strdup("unix:///run/curio/cuzk.sock");
        c->n_listen = 1;
    }
    for (int i = 0; i < c->n_listen; i++) {
        const char *a = c->listen[i];
        if (strncmp(a, "unix:", 5) == 0) {
            const char *p = a + 5;
            while (p[0] == '/' && p[1] == '/') p++;
            if (p[0] != '/') {
                fail(err, cap, "%s: server.listen: %s: a unix socket needs an absolute path (unix:///path)", path, a);
                goto out;
            }
            if (strlen(p) >= 108) { /* sizeof(struct sockaddr_un.sun_path), with its NUL */
                fail(err, cap, "%s: server.listen: %s: the socket path is %zu bytes, over the 107 a unix socket allows",
                     path, a, strlen(p));
                goto out;
            }
        } else {
            /* host:port (gRPC also takes [IPv6]:port and its ipv4:/ipv6:/dns: prefixes); no other scheme */
            const char *colon = strrchr(a, ':');
            if (!colon || colon == a || strstr(a, "://")) {
                fail(err, cap, "%s: server.listen: %s: expected unix:///path or host:port", path, a);
                goto out;
            }
            char *end;
            errno = 0;
            long port = colon[1] >= '0' && colon[1] <= '9' ? strtol(colon + 1, &end, 10) : -1;
            if (port < 1 || port > 65535 || errno || *end) {
                fail(err, cap, "%s: server.listen: %s: the port must be a number from 1 to 65535", path, a);
                goto out;
            }
        }
    }
    if (c->http) {
        struct sockaddr_storage ss;
        int ipv6;
        char e2[512];
        if (dhttp_parse_addr(c->http, &ss, &ipv6, e2, sizeof e2)) {
            fail(err, cap, "%s: server.http: %s", path, e2);
            goto out;
        }
    }
    if ((t = json_object_get(root, "log"))) {
        static const char *const k[] = {"level", NULL};
        if (!json_is_object(t) || check_keys(t, "log", k, path, err, cap)) {
            if (!*err) fail(err, cap, "%s: log: expected a table", path);
            goto out;
        }
        json_t *l = json_object_get(t, "level");
        if (l && (!json_is_string(l) || (c->log_level = dlog_parse_level(json_string_value(l))) < 0)) {
            fail(err, cap, "%s: log.level: expected \"error\", \"warn\", \"info\" or \"debug\"", path);
            goto out;
        }
    }
    if ((t = json_object_get(root, "engine"))) {
        static const char *const k[] = {"backend",    "workers",       "prove_threads", "host_budget",
                                        "job_budget", "gpu_budget",    "pinned_budget", "devices",
                                        "gpu_fallback", "msm_accumulation", "zkey_rows_on_gpu", NULL};
        if (!json_is_object(t)) { fail(err, cap, "%s: engine: expected a table", path); goto out; }
        if (check_keys(t, "engine", k, path, err, cap)) goto out;
        if (get_str(t, "backend", &c->backend, "engine", path, err, cap)) goto out;
        if (strcmp(c->backend, "auto") && strcmp(c->backend, "cpu") && strcmp(c->backend, "gpu")) {
            char g[64];
            fail(err, cap, "%s: engine.backend: %s: expected \"auto\", \"cpu\" or \"gpu\"", path,
                 given(json_object_get(t, "backend"), g, sizeof g));
            goto out;
        }
        json_t *fb = json_object_get(t, "gpu_fallback");
        if (fb) {
            if (!json_is_string(fb) ||
                (strcmp(json_string_value(fb), "none") && strcmp(json_string_value(fb), "cpu"))) {
                char g[64];
                fail(err, cap, "%s: engine.gpu_fallback: %s: expected \"none\" (a circuit that cannot be made resident "
                               "on the GPU fails) or \"cpu\" (it is proved on the CPU)", path, given(fb, g, sizeof g));
                goto out;
            }
            c->gpu_fallback_cpu = strcmp(json_string_value(fb), "cpu") == 0;
        }
        json_t *zr = json_object_get(t, "zkey_rows_on_gpu");
        if (zr) {
            if (!json_is_boolean(zr)) {
                char g[64];
                fail(err, cap, "%s: engine.zkey_rows_on_gpu: %s: expected true or false", path, given(zr, g, sizeof g));
                goto out;
            }
            c->zkey_rows_on_gpu = json_is_true(zr) ? 1 : -1; /* absent: 0, the library's default (on) */
        }
        json_t *ma = json_object_get(t, "msm_accumulation");
        if (ma) {
            static const char *const names[] = {"default", "tasks", "runs"};
            c->msm_accumulation = -1;
            for (int i = 0; json_is_string(ma) && i < 3; i++)
                if (!strcmp(json_string_value(ma), names[i])) c->msm_accumulation = i;
            if (c->msm_accumulation < 0) {
                if (json_is_string(ma) && !strcmp(json_string_value(ma), "affine"))
                    fail(err, cap, "%s: engine.msm_accumulation: \"affine\" (the GPU batch-affine accumulation) was "
                                   "removed: it was slower than \"tasks\"; expected \"default\", \"tasks\" or \"runs\"",
                         path);
                else {
                    char g[64];
                    fail(err, cap, "%s: engine.msm_accumulation: %s: expected \"default\", \"tasks\" or \"runs\"", path,
                         given(ma, g, sizeof g));
                }
                goto out;
            }
        }
        uint64_t v = (uint64_t)c->workers;
        if (get_uint(t, "workers", 64, &v, "engine", path, err, cap)) goto out;
        c->workers = v ? (int)v : 1;
        v = 0;
        if (get_uint(t, "prove_threads", 1024, &v, "engine", path, err, cap)) goto out;
        c->prove_threads = (int)v;
        static const struct { const char *key; size_t off; } B[] = {
            {"host_budget", offsetof(dcfg, host_budget_bytes)},
            {"job_budget", offsetof(dcfg, job_budget_bytes)},
            {"gpu_budget", offsetof(dcfg, gpu_budget_bytes)},
            {"pinned_budget", offsetof(dcfg, pinned_budget_bytes)}};
        for (size_t i = 0; i < sizeof B / sizeof B[0]; i++) {
            json_t *hb = json_object_get(t, B[i].key);
            int br = hb ? get_bytes(hb, (uint64_t *)((char *)c + B[i].off)) : 0;
            if (br == -2) {
                fail(err, cap, "%s: engine.%s: %s is too large (at most 8EiB, 2^63-1 bytes)", path, B[i].key,
                     json_string_value(hb));
                goto out;
            }
            if (br) {
                fail(err, cap, "%s: engine.%s: expected a size (\"64GiB\") or bytes", path, B[i].key);
                goto out;
            }
        }
        json_t *dv = json_object_get(t, "devices");
        if (dv) {
            size_t i;
            json_t *a;
            if (!json_is_array(dv) || json_array_size(dv) == 0 || json_array_size(dv) > 16) {
                fail(err, cap, "%s: engine.devices: expected a list of 1 to 16 CUDA device ordinals", path);
                goto out;
            }
            json_array_foreach(dv, i, a) {
                if (!json_is_integer(a) || json_integer_value(a) < 0 || json_integer_value(a) > 255) {
                    fail(err, cap, "%s: engine.devices[%zu]: expected a device ordinal from 0 to 255", path, i);
                    goto out;
                }
                for (int k2 = 0; k2 < c->n_devices; k2++)
                    if (c->devices[k2] == (int)json_integer_value(a)) {
                        fail(err, cap, "%s: engine.devices: device %d is listed twice", path, c->devices[k2]);
                        goto out;
                    }
                c->devices[c->n_devices++] = (int)json_integer_value(a);
            }
        }
    }
    if ((t = json_object_get(root, "jobs"))) {
        static const char *const k[] = {"result_retention_s", "max_retained", "max_queued", "max_waiting_calls",
                                        "shutdown_grace_s", NULL};
        if (!json_is_object(t)) { fail(err, cap, "%s: jobs: expected a table", path); goto out; }
        if (check_keys(t, "jobs", k, path, err, cap)) goto out;
        uint64_t v = c->result_retention_ms / 1000;
        if (get_uint(t, "result_retention_s", 86400 * 7, &v, "jobs", path, err, cap)) goto out;
        c->result_retention_ms = v * 1000;
        v = c->max_retained;
        if (get_uint(t, "max_retained", 10000000, &v, "jobs", path, err, cap)) goto out;
        c->max_retained = (uint32_t)v;
        v = c->max_queued;
        if (get_uint(t, "max_queued", 10000000, &v, "jobs", path, err, cap)) goto out;
        c->max_queued = (uint32_t)v;
        v = c->max_waiting_calls;
        if (get_uint(t, "max_waiting_calls", 100000, &v, "jobs", path, err, cap)) goto out;
        c->max_waiting_calls = v ? (uint32_t)v : 1;
        v = c->grace_ms / 1000;
        if (get_uint(t, "shutdown_grace_s", 86400, &v, "jobs", path, err, cap)) goto out;
        c->grace_ms = v * 1000;
    }
    if ((t = json_object_get(root, "srs"))) {
        static const char *const k[] = {"idle_evict_s", "keep_host_g1", "from_file", NULL};
        if (!json_is_object(t)) { fail(err, cap, "%s: srs: expected a table", path); goto out; }
        if (check_keys(t, "srs", k, path, err, cap)) goto out;
        json_t *kh = json_object_get(t, "keep_host_g1");
        if (kh) {
            if (!json_is_boolean(kh)) { fail(err, cap, "%s: srs.keep_host_g1: expected true or false", path); goto out; }
            c->keep_host_g1 = json_is_true(kh);
        }
        json_t *ff = json_object_get(t, "from_file");
        if (ff) {
            if (!json_is_boolean(ff)) {
                char g[64];
                fail(err, cap, "%s: srs.from_file: %s: expected true or false", path, given(ff, g, sizeof g));
                goto out;
            }
            c->srs_from_file = json_is_true(ff);
        }
        uint64_t v = c->srs_idle_evict_ms / 1000;
        if (get_uint(t, "idle_evict_s", 86400 * 365, &v, "srs", path, err, cap)) goto out;
        c->srs_idle_evict_ms = v * 1000;
    }
    if ((t = json_object_get(root, "debug"))) {
        static const char *const k[] = {"prove_delay_ms", "hold_circuit", NULL};
        if (!json_is_object(t)) { fail(err, cap, "%s: debug: expected a table", path); goto out; }
        if (check_keys(t, "debug", k, path, err, cap)) goto out;
        if (get_uint(t, "prove_delay_ms", 3600000, &c->debug_prove_delay_ms, "debug", path, err, cap)) goto out;
        if (get_str(t, "hold_circuit", &c->debug_hold_circuit, "debug", path, err, cap)) goto out;
    }
    if ((t = json_object_get(root, "circuits"))) {
        if (!json_is_object(t)) { fail(err, cap, "%s: circuits: expected a table of [circuits.<id>]", path); goto out; }
        c->circuits = calloc(json_object_size(t) + 1, sizeof(dcfg_circuit));
        const char *id;
        json_t *ct;
        json_object_foreach(t, id, ct) {
            char tname[200];
            snprintf(tname, sizeof tname, "circuits.%s", id);
            if (!valid_id(id)) {
                fail(err, cap, "%s: %s: a circuit id uses letters, digits, '-', '_' and '.' (1 to 128)", path, tname);
                goto out;
            }
            if (!json_is_object(ct)) { fail(err, cap, "%s: %s: expected a table", path, tname); goto out; }
            static const char *const k[] = {"zkey", "params", "r1cs", "preload", "sectors", NULL};
            if (check_keys(ct, tname, k, path, err, cap)) goto out;
            dcfg_circuit *cc = &c->circuits[c->n_circuits++];
            cc->id = strdup(id);
            if (get_str(ct, "zkey", &cc->zkey, tname, path, err, cap) ||
                get_str(ct, "params", &cc->params, tname, path, err, cap) ||
                get_str(ct, "r1cs", &cc->r1cs, tname, path, err, cap))
                goto out;
            json_t *p = json_object_get(ct, "preload");
            if (p) {
                if (!json_is_boolean(p)) { fail(err, cap, "%s: %s.preload: expected true or false", path, tname); goto out; }
                cc->preload = json_is_true(p);
            }
            for (int i = 0; SNAP_IDS[i].id; i++)
                if (strcmp(id, SNAP_IDS[i].id) == 0) {
                    cc->filecoin = 1;
                    cc->snap_circuit = SNAP_IDS[i].id;
                    cc->snap_sector_size = SNAP_IDS[i].sector_size;
                }
            for (int i = 0; POST_IDS[i].id; i++)
                if (strcmp(id, POST_IDS[i].id) == 0) {
                    cc->filecoin = 1;
                    cc->post_circuit = POST_IDS[i].circuit;
                    cc->post_kind = POST_IDS[i].kind;
                    cc->post_sector_size = POST_IDS[i].sector_size;
                }
            for (int i = 0; POREP_IDS[i].id; i++)
                if (strcmp(id, POREP_IDS[i].id) == 0) {
                    cc->filecoin = 1;
                    cc->porep_circuit = POREP_IDS[i].id;
                    cc->porep_sector_size = POREP_IDS[i].sector_size;
                }
            uint64_t sectors = 0;
            if (get_uint(ct, "sectors", 100000, &sectors, tname, path, err, cap)) goto out;
            cc->sectors = (uint32_t)sectors;
            if (json_object_get(ct, "sectors") && !cc->post_circuit) {
                fail(err, cap, "%s: %s.sectors: only PoSt circuits (wpost-SIZE, winning-SIZE) take a sector count", path, tname);
                goto out;
            }
            if (json_object_get(ct, "sectors") && sectors == 0) {
                fail(err, cap, "%s: %s.sectors: expected an integer from 1 to 100000 (leave it out for the real circuit)", path,
                     tname);
                goto out;
            }
            if ((cc->post_circuit || cc->porep_circuit || cc->snap_circuit) && (cc->zkey || cc->r1cs)) {
                fail(err, cap, "%s: %s: a %s circuit takes params = \"...\" only (bellperson .params; its R1CS is "
                     "recorded in memory)", path, tname, cc->post_circuit ? "PoSt" : cc->porep_circuit ? "PoRep" : "SnapDeals");
                goto out;
            }
            if (!!cc->zkey == !!cc->params) {
                fail(err, cap, "%s: %s: give exactly one of zkey = \"...\" or params = \"...\"", path, tname);
                goto out;
            }
            if (cc->params && !cc->r1cs && !cc->filecoin) {
                fail(err, cap, "%s: %s: params needs r1cs = \"...\" (the circuit's .r1cs)", path, tname);
                goto out;
            }
            if (cc->zkey && check_readable(cc->zkey, tname, path, err, cap)) goto out;
            if (cc->params && check_readable(cc->params, tname, path, err, cap)) goto out;
            if (cc->r1cs && check_readable(cc->r1cs, tname, path, err, cap)) goto out;
        }
    }
    if (c->debug_hold_circuit && !dcfg_find_circuit(c, c->debug_hold_circuit)) {
        fail(err, cap, "%s: debug.hold_circuit: no [circuits.%s]", path, c->debug_hold_circuit);
        goto out;
    }
    rc = 0;
out:
    json_decref(root);
    if (rc) dcfg_free(c);
    return rc;
}

void dcfg_free(dcfg *c) {
    for (int i = 0; i < c->n_listen; i++) free(c->listen[i]);
    free(c->listen);
    free(c->http);
    free(c->backend);
    free(c->debug_hold_circuit);
    for (int i = 0; i < c->n_circuits; i++) {
        free(c->circuits[i].id);
        free(c->circuits[i].zkey);
        free(c->circuits[i].params);
        free(c->circuits[i].r1cs);
    }
    free(c->circuits);
    memset(c, 0, sizeof *c);
}

const dcfg_circuit *dcfg_find_circuit(const dcfg *c, const char *id) {
    for (int i = 0; i < c->n_circuits; i++)
        if (strcmp(c->circuits[i].id, id) == 0) return &c->circuits[i];
    return NULL;
}
