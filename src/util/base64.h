/* Internal: base64, RFC 4648 section 4 (standard alphabet A-Z a-z 0-9 + /, '=' padding required),
 * as Go's encoding/json writes a []byte and as Curio's files carry the vanilla proofs (the C1
 * wrapper's Phase1Out, the SnapDeals partition proofs).
 *
 * Strict: every character must be of the alphabet (no whitespace, no line breaks, no URL-safe
 * alphabet), the length a multiple of 4, '=' only as the last one or two characters of the
 * input. With BASE64_JSON_SLASH, the two characters "\/" (JSON's escaped solidus, which some
 * encoders write) are taken as one '/'; a backslash before anything else is refused. Bounded:
 * the output is never written past its capacity. Reentrant; no allocation.
 */
#ifndef CUZK_UTIL_BASE64_H
#define CUZK_UTIL_BASE64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BASE64_JSON_SLASH 1u

/* The most bytes n characters decode to: a buffer this size always suffices. */
static inline size_t base64_decoded_max(size_t n) { return n / 4 * 3; }
/* The characters n bytes encode to (with padding): 4 per started 3 bytes. */
static inline size_t base64_encoded_len(size_t n) { return n / 3 * 4 + (n % 3 ? 4 : 0); }

/* Decodes s[0..n) into out[0..cap) and sets *out_len. Returns false on bad input, with *bad_at
 * the offset in s of the first bad character (one outside the alphabet, a misplaced '=', a
 * character after the padding), or n when the input ends inside a 4-character group (a length
 * that is not a multiple of 4), or SIZE_MAX when cap is too small (cap >= base64_decoded_max(n)
 * never is); out then holds garbage. */
bool base64_decode(uint8_t *out, size_t cap, size_t *out_len, const char *s, size_t n, unsigned flags, size_t *bad_at);

/* Says what is wrong for a false base64_decode(s, n) with bad_at: "'*' at character 7",
 * "byte 0x0a at character 7" (not printable), "37 characters, not a multiple of 4", "no room".
 * Writes at most cap bytes, NUL-terminated. */
void base64_describe(char *buf, size_t cap, const char *s, size_t n, size_t bad_at);

/* Encodes in[0..n) into out: exactly base64_encoded_len(n) characters, padded, no NUL. */
void base64_encode(char *out, const uint8_t *in, size_t n);

#endif
