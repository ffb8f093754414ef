/* Decimal strings <-> integers in 64-bit limbs for the snarkjs JSON files (formats/json.h): no
 * curve type, compiled once. */
#include "formats/json.h"

#include <string.h>

__extension__ typedef unsigned __int128 u128;

#define MAX_LIMBS 8

void limbs_to_decimal(char *buf, size_t cap, const uint64_t *l, int n) {
    if (cap == 0) return;
    if (n > MAX_LIMBS) n = MAX_LIMBS;
    uint64_t t[MAX_LIMBS];
    memcpy(t, l, sizeof(uint64_t) * (size_t)n);
    /* 160 digits are enough for 8 limbs (2^512 < 10^155) */
    char digits[160];
    int nd = 0;
    int top = n;
    while (top > 0 && t[top - 1] == 0) top--;
    while (top > 0) {
        /* t /= 10^19, remainder r */
        const uint64_t D = 10000000000000000000ull;
        uint64_t r = 0;
        for (int i = top - 1; i >= 0; i--) {
            u128 cur = ((u128)r << 64) | t[i];
            t[i] = (uint64_t)(cur / D);
            r = (uint64_t)(cur % D);
        }
        while (top > 0 && t[top - 1] == 0) top--;
        for (int k = 0; k < 19; k++) {
            digits[nd++] = (char)('0' + r % 10);
            r /= 10;
            if (top == 0 && r == 0) break;
        }
    }
    if (nd == 0) digits[nd++] = '0';
    size_t o = 0;
    while (nd > 0 && o + 1 < cap) buf[o++] = digits[--nd];
    buf[o] = 0;
}

bool decimal_to_limbs(uint64_t *l, int n, const char *s, const uint64_t *mod) {
    if (!s || !*s || n <= 0 || n > MAX_LIMBS) return false;
    uint64_t t[MAX_LIMBS] = {0};
    size_t len = strlen(s);
    if (len > 200) return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        uint64_t carry = (uint64_t)(s[i] - '0');
        for (int k = 0; k < n; k++) {
            u128 cur = (u128)t[k] * 10 + carry;
            t[k] = (uint64_t)cur;
            carry = (uint64_t)(cur >> 64);
        }
        if (carry) return false; /* does not fit in n limbs */
    }
    if (mod) {
        /* t < mod ? */
        int k = n - 1;
        while (k >= 0 && t[k] == mod[k]) k--;
        if (k < 0 || t[k] > mod[k]) return false;
    }
    memcpy(l, t, sizeof(uint64_t) * (size_t)n);
    return true;
}
