/* Internal: text taken from input files, made safe to print.
 *
 * A string from a file (a JSON "curve" value, a protocol name) can hold a newline, which would
 * split a one-line error or forge lines of `info`'s output, or a terminal escape sequence.
 * text_escape copies it with every control character written as a visible escape: \n \r \t \\
 * stay readable, other bytes < 0x20, DEL, the C1 controls (U+0080..U+009F, UTF-8 C2 80..C2 9F)
 * and bytes that are not valid UTF-8 become \xNN. Printable ASCII and valid UTF-8 pass through.
 */
#ifndef CUZK_UTIL_TEXT_H
#define CUZK_UTIL_TEXT_H

#include <stddef.h>

/* Escapes the first n bytes of src (stopping at a NUL) into dst (cap bytes, always
 * NUL-terminated when cap > 0). When the escaped text does not fit, or more than max_in bytes of
 * src would be used (0: no limit), it is cut at a character boundary and ends with
 * "... (N more bytes)" when that mark fits. Returns the length written (excluding the NUL). */
size_t text_escape(char *dst, size_t cap, const char *src, size_t n, size_t max_in);

#endif
