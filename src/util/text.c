/* text_escape (text.h). */
#include "util/text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (n bytes left) that is not a C1 control, or 0. */
static size_t utf8_len(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    size_t k;
    unsigned cp;
    if (c >= 0xC2 && c <= 0xDF) { k = 2; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { k = 3; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { k = 4; cp = c & 0x07; }
    else return 0;
    if (k > n) return 0;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if ((k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    if (cp >= 0x80 && cp <= 0x9F) return 0; /* C1 controls, e.g. U+009B (CSI) */
    return k;
}

/* The escape of the character at s[i] into tmp (>= 8 bytes); *used = bytes of s it takes. */
static size_t escape_one(char *tmp, const unsigned char *s, size_t i, size_t len, size_t *used) {
    unsigned char c = s[i];
    size_t u;
    *used = 1;
    switch (c) {
    case '\n': memcpy(tmp, "\\n", 2); return 2;
    case '\r': memcpy(tmp, "\\r", 2); return 2;
    case '\t': memcpy(tmp, "\\t", 2); return 2;
    case '\\': memcpy(tmp, "\\\\", 2); return 2;
    default: break;
    }
    if (c >= 0x20 && c < 0x7F) { tmp[0] = (char)c; return 1; }
    if (c >= 0x80 && (u = utf8_len(s + i, len - i)) != 0) { memcpy(tmp, s + i, u); *used = u; return u; }
    snprintf(tmp, 8, "\\x%02x", c);
    return 4;
}

size_t text_escape(char *dst, size_t cap, const char *src, size_t n, size_t max_in) {
    if (cap == 0) return 0;
    const unsigned char *s = (const unsigned char *)src;
    size_t len = 0;
    while (len < n && s[len]) len++;
    size_t limit = max_in && max_in < len ? max_in : len, total = 0, used;
    char tmp[8];
    for (size_t i = 0; i < limit; i += used) total += escape_one(tmp, s, i, len, &used);
    /* all of it when it fits; else as much as fits with room for the mark */
    size_t budget = cap - 1;
    if (limit < len || total > budget) budget = budget > 32 ? budget - 32 : budget;
    size_t o = 0, i = 0;
    while (i < limit) {
        size_t tl = escape_one(tmp, s, i, len, &used);
        if (o + tl > budget || i + used > limit) break;
        memcpy(dst + o, tmp, tl);
        o += tl;
        i += used;
    }
    if (i < len) {
        char mark[40];
        int k = snprintf(mark, sizeof mark, "... (%zu more bytes)", len - i);
        if (k > 0 && (size_t)k < cap - o) {
            memcpy(dst + o, mark, (size_t)k);
            o += (size_t)k;
        }
    }
    dst[o] = 0;
    return o;
}
