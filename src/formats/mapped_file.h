/* Read-only memory-mapped files with bounds-checked cursors.
 *
 * mapped_file_open maps the whole file (MAP_PRIVATE, PROT_READ); the mapping is owned by the
 * mapped_file and released by mapped_file_close (safe on a zeroed struct). Every read goes
 * through a cursor that fails (returns false) instead of reading past the end.
 */
#ifndef CUZK_FORMATS_MAPPED_FILE_H
#define CUZK_FORMATS_MAPPED_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"

typedef struct mapped_file {
    const uint8_t *m_data; /* NULL for an empty file */
    size_t size_bytes;
    char path[1024];
    int borrowed;          /* 1: m_data is the caller's memory (mapped_file_borrow): never unmapped */
} mapped_file;

/* CUZK_OK, CUZK_ERR_IO (cannot open/stat/map; errno kept). */
cuzk_status mapped_file_open(mapped_file *f, const char *path, cuzk_error *err);
void mapped_file_close(mapped_file *f);
/* A view of size bytes of caller memory as if it were a mapped file named `name` (for error
 * messages, e.g. "<memory>"): the loaders parse in-memory images through the same code as files.
 * The memory must outlive the view; mapped_file_close forgets it without freeing. */
void mapped_file_borrow(mapped_file *f, const void *data, size_t size, const char *name);

typedef struct byte_cursor {
    const uint8_t *p;
    size_t left;
} byte_cursor;

static inline bool cursor_take(byte_cursor *c, size_t n, const uint8_t **out) {
    if (n > c->left) return false;
    *out = c->p;
    c->p += n;
    c->left -= n;
    return true;
}
static inline bool cursor_u32le(byte_cursor *c, uint32_t *v) {
    const uint8_t *p;
    if (!cursor_take(c, 4, &p)) return false;
    *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return true;
}
static inline bool cursor_u64le(byte_cursor *c, uint64_t *v) {
    uint32_t lo, hi;
    if (!cursor_u32le(c, &lo) || !cursor_u32le(c, &hi)) return false;
    *v = (uint64_t)hi << 32 | lo;
    return true;
}
static inline bool cursor_u32be(byte_cursor *c, uint32_t *v) {
    const uint8_t *p;
    if (!cursor_take(c, 4, &p)) return false;
    *v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
    return true;
}

#endif
