/* Checks every string field of a serialized protobuf message, at the wire level, before protobuf-c
 * unpacks it (protobuf-c checks no UTF-8, and its NUL-terminated strings would silently truncate an
 * embedded U+0000): each must be well-formed UTF-8 (no overlong forms, surrogates, or code points
 * above U+10FFFF) without NUL. Sub-messages are checked recursively; unknown fields are skipped.
 * Returns 0, or -1 with "field <name>: reason" in msg (also for a malformed wire encoding). */
#ifndef CUZKD_PBVALID_H
#define CUZKD_PBVALID_H

#include <protobuf-c/protobuf-c.h>
#include <stddef.h>
#include <stdint.h>

int pb_check_strings(const ProtobufCMessageDescriptor *d, const uint8_t *buf, size_t len, char *msg, size_t cap);
/* 1 if s[0..n) is well-formed UTF-8 without NUL. */
int utf8_valid(const uint8_t *s, size_t n);

#endif
