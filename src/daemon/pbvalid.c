#include "pbvalid.h"

#include <stdio.h>
#include <string.h>

int utf8_valid(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c == 0) return 0;
        if (c < 0x80) { i++; continue; }
        size_t k;
        uint32_t cp, min;
        if ((c & 0xe0) == 0xc0) { k = 1; cp = c & 0x1f; min = 0x80; }
        else if ((c & 0xf0) == 0xe0) { k = 2; cp = c & 0x0f; min = 0x800; }
        else if ((c & 0xf8) == 0xf0) { k = 3; cp = c & 0x07; min = 0x10000; }
        else return 0;
        for (size_t j = 1; j <= k; j++) {
            if (i + j >= n || (s[i + j] & 0xc0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + j] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
        i += k + 1;
    }
    return 1;
}

static int varint(const uint8_t *b, size_t len, size_t *pos, uint64_t *v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*pos >= len) return -1;
        uint8_t c = b[(*pos)++];
        *v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) return 0;
    }
    return -1;
}

static int check(const ProtobufCMessageDescriptor *d, const uint8_t *b, size_t len, char *msg, size_t cap,
                 int depth) {
    if (depth > 32) { snprintf(msg, cap, "message nested too deeply"); return -1; }
    size_t pos = 0;
    while (pos < len) {
        uint64_t key, v;
        if (varint(b, len, &pos, &key)) { snprintf(msg, cap, "malformed protobuf (bad tag)"); return -1; }
        uint32_t num = (uint32_t)(key >> 3);
        int wt = (int)(key & 7);
        if (num == 0) { snprintf(msg, cap, "malformed protobuf (field number 0)"); return -1; }
        const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(d, num);
        switch (wt) {
        case 0:
            if (varint(b, len, &pos, &v)) { snprintf(msg, cap, "malformed protobuf (bad varint)"); return -1; }
            break;
        case 1:
            if (len - pos < 8) { snprintf(msg, cap, "malformed protobuf (truncated)"); return -1; }
            pos += 8;
            break;
        case 5:
            if (len - pos < 4) { snprintf(msg, cap, "malformed protobuf (truncated)"); return -1; }
            pos += 4;
            break;
        case 2:
            if (varint(b, len, &pos, &v) || v > len - pos) {
                snprintf(msg, cap, "malformed protobuf (length beyond the message)");
                return -1;
            }
            if (f && f->type == PROTOBUF_C_TYPE_STRING && !utf8_valid(b + pos, (size_t)v)) {
                snprintf(msg, cap, "field %s: not valid UTF-8 (or contains NUL)", f->name);
                return -1;
            }
            if (f && f->type == PROTOBUF_C_TYPE_MESSAGE &&
                check(f->descriptor, b + pos, (size_t)v, msg, cap, depth + 1))
                return -1;
            pos += (size_t)v;
            break;
        default:
            snprintf(msg, cap, "malformed protobuf (wire type %d)", wt);
            return -1;
        }
    }
    return 0;
}

int pb_check_strings(const ProtobufCMessageDescriptor *d, const uint8_t *buf, size_t len, char *msg, size_t cap) {
    return check(d, buf, len, msg, cap, 0);
}
