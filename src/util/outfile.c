/* Outputs through a temporary and a rename (outfile.h). */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"

#define PARTIAL_MAX 16
static char g_partial[PARTIAL_MAX][4200];
static volatile sig_atomic_t g_partial_used[PARTIAL_MAX];
static pthread_mutex_t g_partial_mu = PTHREAD_MUTEX_INITIALIZER;

static void partial_add(const char *tmp) {
    pthread_mutex_lock(&g_partial_mu);
    for (int i = 0; i < PARTIAL_MAX; i++)
        if (!g_partial_used[i]) {
            snprintf(g_partial[i], sizeof g_partial[i], "%s", tmp);
            g_partial_used[i] = 1;
            break;
        }
    pthread_mutex_unlock(&g_partial_mu);
}

/* Forgets tmp; returns whether it was registered. */
static bool partial_del(const char *tmp) {
    bool found = false;
    pthread_mutex_lock(&g_partial_mu);
    for (int i = 0; i < PARTIAL_MAX && !found; i++)
        if (g_partial_used[i] && !strcmp(g_partial[i], tmp)) {
            g_partial_used[i] = 0;
            found = true;
        }
    pthread_mutex_unlock(&g_partial_mu);
    return found;
}

void outfile_remove_partials(void) {
    for (int i = 0; i < PARTIAL_MAX; i++)
        if (g_partial_used[i]) unlink(g_partial[i]);
}

bool outfile_is_special(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* The file an output path names: a symbolic link's target when path is a link (the link stays,
 * its target gets the content, as a shell redirection would), also when that target does not
 * exist yet (a dangling link: the target is created, the link not replaced); else path itself.
 * Links to links are followed (at most 40, as the kernel does). */
static const char *out_target(const char *path, char *buf, size_t cap) {
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    char *r = realpath(path, NULL);
    if (r) {
        int n = snprintf(buf, cap, "%s", r);
        free(r);
        return n > 0 && (size_t)n < cap ? buf : path;
    }
    char cur[PATH_MAX + 1], link[PATH_MAX + 1];
    snprintf(cur, sizeof cur, "%s", path);
    for (int hop = 0; hop < 40; hop++) {
        ssize_t k = readlink(cur, link, sizeof link - 1);
        if (k < 0) break; /* not a link (any more): cur is the file to create */
        link[k] = 0;
        if (link[0] == '/') {
            snprintf(cur, sizeof cur, "%s", link);
        } else { /* relative to the link's directory */
            char *slash = strrchr(cur, '/');
            int n = slash ? snprintf(buf, cap, "%.*s/%s", (int)(slash - cur), cur, link) : snprintf(buf, cap, "%s", link);
            if (n <= 0 || (size_t)n >= cap || (size_t)n >= sizeof cur) return path;
            snprintf(cur, sizeof cur, "%s", buf);
        }
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) break;
    }
    int n = snprintf(buf, cap, "%s", cur);
    return n > 0 && (size_t)n < cap ? buf : path;
}

/* The temporary for path's content, beside the file it names (out_target): "<file>.tmp.<pid>", or
 * where that name would pass NAME_MAX (a name of ~250 characters) a short hidden one in the same
 * directory, ".cuzk.tmp.<pid>.<n>" (same file system: the rename stays atomic). */
static void tmp_beside(char *buf, size_t cap, const char *path) {
    char t[PATH_MAX + 1];
    const char *dst = out_target(path, t, sizeof t), *slash = strrchr(dst, '/');
    const char *base = slash ? slash + 1 : dst;
    char sfx[32];
    snprintf(sfx, sizeof sfx, ".tmp.%ld", (long)getpid());
    if (strlen(base) + strlen(sfx) <= NAME_MAX) {
        snprintf(buf, cap, "%s%s", dst, sfx);
    } else {
        static atomic_uint seq;
        snprintf(buf, cap, "%.*s.cuzk%s.%u", (int)(base - dst), dst, sfx, atomic_fetch_add(&seq, 1));
    }
}

void outfile_tmp_name(char *buf, size_t cap, const char *path) {
    if (outfile_is_special(path)) {
        snprintf(buf, cap, "%s", path);
        return;
    }
    tmp_beside(buf, cap, path);
    partial_add(buf);
}

void outfile_name_output(cuzk_error *err, const char *tmp, const char *path) {
    if (!err || !tmp || !path || !strcmp(tmp, path)) return;
    char *at = strstr(err->msg, tmp);
    if (!at) return;
    char m[sizeof err->msg];
    snprintf(m, sizeof m, "%.*s%s%s", (int)(at - err->msg), err->msg, path, at + strlen(tmp));
    snprintf(err->msg, sizeof err->msg, "%s", m);
}

void outfile_discard(const char *path) {
    struct stat st;
    if (partial_del(path) || (lstat(path, &st) == 0 && S_ISREG(st.st_mode))) unlink(path);
}

cuzk_status outfile_commit(const char *tmp, const char *path, cuzk_error *err) {
    if (!strcmp(tmp, path)) return CUZK_OK; /* written in place (not a regular file) */
    char t[PATH_MAX + 1];
    const char *dst = out_target(path, t, sizeof t); /* a link keeps pointing at the new content */
    if (rename(tmp, dst) != 0) {
        cuzk_status st = ERR(err, CUZK_ERR_IO, "cannot rename %s to %s: %s", tmp, dst, strerror(errno));
        outfile_discard(tmp);
        return st;
    }
    partial_del(tmp);
    return CUZK_OK;
}

/* Output paths must differ from each other and from every input, and must not be directories:
 * checked before any work so that a typo never overwrites a key or a witness. */
/* realpath of the directory part of p, then "/" and the last component, into out; false when the
 * directory does not resolve (its own check reports that) or the name is "." / ".." */
static bool resolved_name(const char *p, char *out, size_t cap) {
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(p, '/');
    const char *base = slash ? slash + 1 : p;
    if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) return false;
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == p) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - p), p);
    if (!realpath(dir, real)) return false;
    return snprintf(out, cap, "%s/%s", real, base) < (int)cap;
}

static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    if (!strcmp(a, b)) return true;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    /* not both there yet ("dir/o1" and "dir/./o1"): the same resolved directory and name */
    char ra[PATH_MAX + 256], rb[PATH_MAX + 256];
    return resolved_name(a, ra, sizeof ra) && resolved_name(b, rb, sizeof rb) && !strcmp(ra, rb);
}

cuzk_status outfile_check_paths(const char *const *ins, int n_in, const char *const *outs, int n_out, cuzk_error *err) {
    for (int i = 0; i < n_out; i++) {
        struct stat st;
        if (!outs[i]) return ERR(err, CUZK_ERR_ARG, "missing output path");
        if (!outs[i][0]) return ERR(err, CUZK_ERR_ARG, "an empty output path ('')");
        if (stat(outs[i], &st) == 0 && S_ISDIR(st.st_mode))
            return ERR(err, CUZK_ERR_ARG, "output %s is a directory", outs[i]);
        for (int j = 0; j < n_in; j++)
            if (ins[j] && same_file(outs[i], ins[j]))
                return ERR(err, CUZK_ERR_ARG, "output %s is also an input: refusing to overwrite it", outs[i]);
        for (int j = 0; j < i; j++)
            if (same_file(outs[i], outs[j]) && !outfile_is_special(outs[i]))
                return ERR(err, CUZK_ERR_ARG, "the two outputs are the same file (%s)", outs[i]);
        /* the directory must exist and be writable now, not after minutes of work */
        char dir[4200];
        snprintf(dir, sizeof dir, "%s", outs[i]);
        char *slash = strrchr(dir, '/');
        if (slash == dir) dir[1] = 0;
        else if (slash) *slash = 0;
        else snprintf(dir, sizeof dir, ".");
        if (access(dir, W_OK) != 0) {
            int e = errno; /* is_special_file's stat must not replace the reason */
            if (!outfile_is_special(outs[i]))
                return ERR(err, CUZK_ERR_IO, "cannot write %s: %s (directory %s)", outs[i], strerror(e), dir);
        } else if (!outfile_is_special(outs[i])) {
            /* the temporary itself, created and removed: where root passes access() but the file
             * system refuses (/proc, a read-only bind mount), the error names the user's path */
            char probe[PATH_MAX + 64];
            tmp_beside(probe, sizeof probe, outs[i]);
            int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (fd < 0 && errno != EEXIST)
                return ERR(err, CUZK_ERR_IO, "cannot write %s: %s", outs[i], strerror(errno));
            if (fd >= 0) {
                close(fd);
                unlink(probe);
            }
        }
    }
    return CUZK_OK;
}
