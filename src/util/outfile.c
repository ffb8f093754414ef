/* Outputs through a temporary and a rename (outfile.h). */
#include "util/outfile.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
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

void outfile_tmp_name(char *buf, size_t cap, const char *path) {
    if (outfile_is_special(path)) {
        snprintf(buf, cap, "%s", path);
        return;
    }
    snprintf(buf, cap, "%s.tmp.%ld", path, (long)getpid());
    partial_add(buf);
}

void outfile_discard(const char *path) {
    struct stat st;
    if (partial_del(path) || (lstat(path, &st) == 0 && S_ISREG(st.st_mode))) unlink(path);
}

cuzk_status outfile_commit(const char *tmp, const char *path, cuzk_error *err) {
    if (!strcmp(tmp, path)) return CUZK_OK; /* written in place (not a regular file) */
    if (rename(tmp, path) != 0) {
        cuzk_status st = ERR(err, CUZK_ERR_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        outfile_discard(tmp);
        return st;
    }
    partial_del(tmp);
    return CUZK_OK;
}
