/* Progress line (progress.h). */
#include "progress.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Monotonic wall clock in milliseconds (the CLI's own: front ends include only include/). */
static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

#define TTY_REDRAW_MS 100.0
#define BAR_WIDTH 20

struct progress {
    FILE *f;
    bool tty, enabled;
    pthread_mutex_t lock;
    char stage[48];
    double stage_start_ms, last_draw_ms;
    bool drawn;  /* something of the current stage is on screen (TTY) */
    bool stage_done; /* the stage's final state is drawn: further updates of it are ignored */
    bool pending;    /* TTY: the stage's last update is not on screen (drawn when the stage ends) */
    uint64_t last_done, last_total;
    bool active; /* a stage has started */
    char detail[80]; /* progress_detail */
};

progress *progress_new(FILE *f, int tty, bool enabled) {
    progress *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->f = f;
    p->tty = tty < 0 ? isatty(fileno(f)) != 0 : tty != 0;
    p->enabled = enabled;
    pthread_mutex_init(&p->lock, NULL);
    return p;
}

const char *progress_fmt_count(char *buf, size_t cap, double v) {
    if (v >= 1e9) snprintf(buf, cap, "%.2fG", v / 1e9);
    else if (v >= 1e6) snprintf(buf, cap, "%.2fM", v / 1e6);
    else if (v >= 1e4) snprintf(buf, cap, "%.1fk", v / 1e3);
    else snprintf(buf, cap, "%.0f", v);
    return buf;
}

static void fmt_eta(char *buf, size_t cap, double s) {
    if (s < 0 || s > 1e7) snprintf(buf, cap, "?");
    else if (s < 100) snprintf(buf, cap, "%.0fs", s);
    else if (s < 6000) {
        long mm = (long)(s / 60);
        snprintf(buf, cap, "%ldm%02lds", mm, (long)s - 60 * mm);
    }
    else snprintf(buf, cap, "%.1fh", s / 3600);
}

/* Writes the stage line (without line ending) for done/total at time now. */
static void draw(progress *p, uint64_t done, uint64_t total, double now) {
    double el = (now - p->stage_start_ms) / 1e3;
    double rate = el > 0 ? (double)done / el : 0;
    char d[16], t[16], r[16], eta[24];
    progress_fmt_count(d, sizeof d, (double)done);
    progress_fmt_count(t, sizeof t, (double)total);
    progress_fmt_count(r, sizeof r, rate);
    if (total) {
        double frac = done >= total ? 1.0 : (double)done / (double)total;
        char bar[BAR_WIDTH + 1];
        int full = (int)(frac * BAR_WIDTH);
        for (int i = 0; i < BAR_WIDTH; i++) bar[i] = i < full ? '#' : '.';
        bar[BAR_WIDTH] = 0;
        if (done >= total) snprintf(eta, sizeof eta, "%.1fs", el);
        else {
            char e[16];
            fmt_eta(e, sizeof e, rate > 0 ? (double)(total - done) / rate : -1);
            snprintf(eta, sizeof eta, "ETA %s", e);
        }
        if (done == 0) { /* no rate yet (progress_tick): the time spent stands for the ETA */
            char e[16];
            fmt_eta(e, sizeof e, el);
            snprintf(eta, sizeof eta, "%s so far", e);
        }
        if (total < 100) /* steps, not items: no rate */
            fprintf(p->f, "%-14s [%s] %5.1f%%  step %llu/%llu  %s", p->stage, bar, 100 * frac,
                    (unsigned long long)done, (unsigned long long)total, eta);
        else
            fprintf(p->f, "%-14s [%s] %5.1f%%  %8s/%-8s %8s/s  %s", p->stage, bar, 100 * frac, d, t, r, eta);
    } else {
        fprintf(p->f, "%-14s %8s  %8s/s  %.1fs", p->stage, d, r, el);
    }
    if (p->detail[0]) fprintf(p->f, "  %s", p->detail);
}

/* TTY: the last state of a stage that ended without its final update drawn (unknown total, or
 * updates too early to show a rate) is drawn once, so that every stage leaves its last line. */
static void flush_pending(progress *p, double now) {
    if (!p->tty || !p->pending || !p->active) return;
    fputs("\r\033[K", p->f);
    draw(p, p->last_done, p->last_total, now);
    p->drawn = true;
    p->pending = false;
}

void progress_update(progress *p, const char *stage, uint64_t done, uint64_t total) {
    if (!p || !p->enabled || !stage) return;
    pthread_mutex_lock(&p->lock);
    double now = now_ms();
    bool new_stage = !p->active || strncmp(p->stage, stage, sizeof p->stage - 1) != 0;
    if (new_stage) {
        flush_pending(p, now);
        if (p->tty && p->drawn) fputc('\n', p->f); /* keep the last state of the previous stage */
        snprintf(p->stage, sizeof p->stage, "%s", stage);
        p->stage_start_ms = now;
        p->last_draw_ms = now;
        p->drawn = false;
        p->active = true;
        p->stage_done = false;
        p->pending = false;
    }
    bool finished = total && done >= total;
    if (p->stage_done) { pthread_mutex_unlock(&p->lock); return; }
    /* nothing before the rate is known (no "ETA ?" frame), except a stage's final state */
    bool no_rate_yet = !finished && (done == 0 || now - p->stage_start_ms < 200.0);
    p->last_done = done;
    p->last_total = total;
    p->pending = true;
    if (p->tty) {
        if (!no_rate_yet && (!p->drawn || finished || now - p->last_draw_ms >= TTY_REDRAW_MS)) {
            p->pending = false;
            fputs("\r\033[K", p->f);
            draw(p, done, total, now);
            fflush(p->f);
            p->last_draw_ms = now;
            p->drawn = true;
            p->stage_done = finished;
        }
    } else if (!no_rate_yet && now - p->last_draw_ms >= PROGRESS_LOG_SECONDS * 1e3) {
        draw(p, done, total, now);
        fputc('\n', p->f);
        fflush(p->f);
        p->last_draw_ms = now;
    }
    pthread_mutex_unlock(&p->lock);
}

void progress_detail(progress *p, const char *detail) {
    if (!p || !p->enabled) return;
    pthread_mutex_lock(&p->lock);
    snprintf(p->detail, sizeof p->detail, "%s", detail ? detail : "");
    pthread_mutex_unlock(&p->lock);
}

void progress_tick(progress *p) {
    if (!p || !p->enabled) return;
    pthread_mutex_lock(&p->lock);
    double now = now_ms();
    if (p->active && !p->stage_done) {
        if (p->tty && now - p->last_draw_ms >= TTY_REDRAW_MS) {
            fputs("\r\033[K", p->f);
            draw(p, p->last_done, p->last_total, now);
            fflush(p->f);
            p->last_draw_ms = now;
            p->drawn = true;
            p->pending = false;
        } else if (!p->tty && now - p->last_draw_ms >= PROGRESS_LOG_SECONDS * 1e3) {
            draw(p, p->last_done, p->last_total, now);
            fputc('\n', p->f);
            fflush(p->f);
            p->last_draw_ms = now;
        }
    }
    pthread_mutex_unlock(&p->lock);
}

void progress_message(progress *p, const char *line) {
    if (!p || !p->enabled) return;
    pthread_mutex_lock(&p->lock);
    if (p->tty && p->drawn) fputs("\r\033[K", p->f);
    fprintf(p->f, "%s\n", line);
    if (p->tty && p->drawn && p->active) { /* the bar again, below the line */
        double now = now_ms();
        draw(p, p->last_done, p->last_total, now);
        p->last_draw_ms = now;
    }
    fflush(p->f);
    pthread_mutex_unlock(&p->lock);
}

void progress_free(progress *p) {
    if (!p) return;
    if (p->enabled) flush_pending(p, now_ms());
    if (p->enabled && p->tty && p->drawn) {
        fputc('\n', p->f);
        fflush(p->f);
    }
    pthread_mutex_destroy(&p->lock);
    free(p);
}
