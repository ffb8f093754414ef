/* x86-64 Montgomery multiplication with MULX/ADCX/ADOX (BMI2 + ADX) for 4 and 6 limbs, and the
 * run-time switch between it and the generic C in src/ff/mont.h.
 *
 * mont_mul{4,6}_x86 / mont_sqr{4,6}_x86 compute r = a*b*R^-1 mod m (r = a^2*R^-1 mod m) for any odd
 * modulus m with one spare bit (m < 2^(64n-1)) and reduced inputs (a, b < m); r is reduced and may
 * alias a or b. m: n limbs, little-endian; inv = -m^-1 mod 2^64. They are the same function as
 * mont_mul / mont_sqr (bit-identical results) and must only be called when mont_x86_enabled is
 * true: they execute BMI2/ADX instructions. Built with __attribute__((target("bmi2,adx"))), so
 * the rest of the build needs no -m flags and runs on any x86-64.
 * Algorithm: CIOS (Koc, Acar, Kaliski, IEEE Micro 1996) with the product and the reduction row
 * each on two independent carry chains (ADCX: CF, ADOX: OF), as described in Intel's white paper
 * "New Instructions Supporting Large Integer Arithmetic on Intel Architecture Processors" (2012).
 *
 * mont_x86_enabled is set once before main (constructor): the CPU has BMI2 and ADX (CPUID leaf 7)
 * and the environment does not set CUZK_NO_ASM to a non-empty value other than "0" (the 8-lane
 * IFMA code of src/ff/vec52.h is also off under CUZK_NO_IFMA, which keeps this asm).
 * ff_force_generic(true) turns the asm off, the 8-lane IFMA code of src/ff/vec52.h too (tests
 * use it to cover the generic path),
 * ff_force_generic(false) restores that start-up choice. Not thread-safe against
 * concurrent field arithmetic: call it only while no other thread computes.
 * On other architectures MONT_X86 is undefined, ff_force_generic is a no-op and
 * ff_asm_active() is false.
 */
#ifndef CUZK_FF_MONT_X86_H
#define CUZK_FF_MONT_X86_H

#include "ff/mont.h"
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void ff_force_generic(bool on);
bool ff_asm_active(void); /* true when fp_mul etc. take the asm path */
/* ff_force_scalar(true): the 8-lane IFMA code (src/ff/vec52.h) off, the scalar asm kept; false
 * restores the start-up choice (tests and benchmarks compare the two; same thread rule) */
void ff_force_scalar(bool on);
bool ff_vec52_active(void); /* true when the 8-lane code runs */

#if defined(__x86_64__) && defined(__GNUC__)
#define MONT_X86 1

extern bool mont_x86_enabled;

void mont_mul6_x86(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t inv);
void mont_mul4_x86(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t inv);
void mont_sqr6_x86(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv);
void mont_sqr4_x86(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv);
/* the generic C of mont.h, out of line (the cold branch of the dispatch stays small) */
void mont_mul6_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t inv);
void mont_mul4_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t inv);
void mont_sqr6_generic(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv);
void mont_sqr4_generic(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv);

#endif

#ifdef __cplusplus
}
#endif

/* r = a*b*R^-1 mod m / r = a^2*R^-1 mod m through the fastest path for this CPU: the asm when
 * n is 4 or 6 and mont_x86_enabled, else the generic C (out of line on x86-64, inline elsewhere).
 * n is a compile-time constant at every call site, so the n tests fold away and what remains is
 * one well-predicted branch on a global flag and a direct call. */
/* The 4-limb product inline (the same CIOS as mont_mul4_x86, src/ff/mont_x86.c, bit-identical):
 * no call, and the arrays are declared as memory inputs instead of a "memory" clobber, so the
 * compiler keeps the caller's values in registers across it. Plain inline asm needs no target
 * attribute (the assembler, not the compiler, sees MULX/ADCX/ADOX); it only runs where
 * mont_x86_enabled, as the out-of-line one. Measured in bench/RESULTS.md section 31. */
#ifdef MONT_X86
#define MONT4_MX_(src, tl, th)                                                                   \
    "mulxq " src ", %[lo], %[hi]\n\t"                                                           \
    "adcxq %[lo], %[" #tl "]\n\t"                                                               \
    "adoxq %[hi], %[" #th "]\n\t"
#define MONT4_ROUND_(i, t0, t1, t2, t3, t4)                                                      \
    "movq " #i "*8(%[b]), %[d]\n\t"                                                             \
    "xorl %k[lo], %k[lo]\n\t"                                                                   \
    MONT4_MX_("0*8(%[a])", t0, t1) MONT4_MX_("1*8(%[a])", t1, t2)                               \
    MONT4_MX_("2*8(%[a])", t2, t3) MONT4_MX_("3*8(%[a])", t3, t4)                               \
    "adcq $0, %[" #t4 "]\n\t"                                                                   \
    "movq %[" #t0 "], %[d]\n\t"                                                                 \
    "imulq %[inv], %[d]\n\t"                                                                    \
    "xorl %k[lo], %k[lo]\n\t"                                                                   \
    MONT4_MX_("0*8(%[m])", t0, t1) MONT4_MX_("1*8(%[m])", t1, t2)                               \
    MONT4_MX_("2*8(%[m])", t2, t3) MONT4_MX_("3*8(%[m])", t3, t4)                               \
    "adcq $0, %[" #t4 "]\n\t"
MONT_INLINE void mont_mul4_x86_inline(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                                      uint64_t inv) {
    uint64_t x0, x1, x2, x3, x4, lo, hi, d;
    __asm__(
        "xorl %k[x0], %k[x0]\n\t" "xorl %k[x1], %k[x1]\n\t" "xorl %k[x2], %k[x2]\n\t"
        "xorl %k[x3], %k[x3]\n\t" "xorl %k[x4], %k[x4]\n\t"
        MONT4_ROUND_(0, x0, x1, x2, x3, x4)
        MONT4_ROUND_(1, x1, x2, x3, x4, x0)
        MONT4_ROUND_(2, x2, x3, x4, x0, x1)
        MONT4_ROUND_(3, x3, x4, x0, x1, x2)
        "movq %[x4], %[lo]\n\t" "subq 0*8(%[m]), %[lo]\n\t"
        "movq %[x0], %[hi]\n\t" "sbbq 1*8(%[m]), %[hi]\n\t"
        "movq %[x1], %[d]\n\t"  "sbbq 2*8(%[m]), %[d]\n\t"
        "movq %[x2], %[x3]\n\t" "sbbq 3*8(%[m]), %[x3]\n\t"
        "cmovncq %[lo], %[x4]\n\t" "cmovncq %[hi], %[x0]\n\t" "cmovncq %[d], %[x1]\n\t"
        "cmovncq %[x3], %[x2]\n\t"
        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d)
        : [a] "r"(a), [b] "r"(b), [m] "r"(m), [inv] "rm"(inv),
          "m"(*(const uint64_t(*)[4])a), "m"(*(const uint64_t(*)[4])b), "m"(*(const uint64_t(*)[4])m)
        : "cc");
    (void)x3; (void)lo; (void)hi; (void)d;
    r[0] = x4; r[1] = x0; r[2] = x1; r[3] = x2;
}
/* 4-limb r = a + b mod m and r = a - b mod m (reduced inputs, m < 2^255: a + b does not carry
 * out of 256 bits): ADD/ADC then a trial subtraction of m kept when it does not borrow (CMOV);
 * SUB/SBB then m added back under the borrow's mask. The same results as mont_add / mont_sub of
 * mont.h (plain x86-64, no BMI2/ADX; taken where mont_x86_enabled, so CUZK_NO_ASM turns them off
 * too); the generic C took ~16 ns for an add and a sub, about a product's time. */
MONT_INLINE void mont_add4_x86_inline(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m) {
    uint64_t t0 = a[0], t1 = a[1], t2 = a[2], t3 = a[3], s0, s1, s2, s3;
    __asm__("addq 0*8(%[b]), %[t0]\n\t" "adcq 1*8(%[b]), %[t1]\n\t"
            "adcq 2*8(%[b]), %[t2]\n\t" "adcq 3*8(%[b]), %[t3]\n\t"
            "movq %[t0], %[s0]\n\t" "subq 0*8(%[m]), %[s0]\n\t"
            "movq %[t1], %[s1]\n\t" "sbbq 1*8(%[m]), %[s1]\n\t"
            "movq %[t2], %[s2]\n\t" "sbbq 2*8(%[m]), %[s2]\n\t"
            "movq %[t3], %[s3]\n\t" "sbbq 3*8(%[m]), %[s3]\n\t"
            "cmovncq %[s0], %[t0]\n\t" "cmovncq %[s1], %[t1]\n\t"
            "cmovncq %[s2], %[t2]\n\t" "cmovncq %[s3], %[t3]\n\t"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [s0] "=&r"(s0), [s1] "=&r"(s1),
              [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [b] "r"(b), [m] "r"(m), "m"(*(const uint64_t(*)[4])b), "m"(*(const uint64_t(*)[4])m)
            : "cc");
    r[0] = t0; r[1] = t1; r[2] = t2; r[3] = t3;
}
MONT_INLINE void mont_sub4_x86_inline(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m) {
    uint64_t t0 = a[0], t1 = a[1], t2 = a[2], t3 = a[3], z0, z1, z2, z3;
    __asm__("subq 0*8(%[b]), %[t0]\n\t" "sbbq 1*8(%[b]), %[t1]\n\t"
            "sbbq 2*8(%[b]), %[t2]\n\t" "sbbq 3*8(%[b]), %[t3]\n\t"
            "sbbq %[z0], %[z0]\n\t" /* all ones on a borrow */
            "movq 1*8(%[m]), %[z1]\n\t" "movq 2*8(%[m]), %[z2]\n\t" "movq 3*8(%[m]), %[z3]\n\t"
            "andq %[z0], %[z1]\n\t" "andq %[z0], %[z2]\n\t" "andq %[z0], %[z3]\n\t"
            "andq 0*8(%[m]), %[z0]\n\t"
            "addq %[z0], %[t0]\n\t" "adcq %[z1], %[t1]\n\t"
            "adcq %[z2], %[t2]\n\t" "adcq %[z3], %[t3]\n\t"
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [z0] "=&r"(z0), [z1] "=&r"(z1),
              [z2] "=&r"(z2), [z3] "=&r"(z3)
            : [b] "r"(b), [m] "r"(m), "m"(*(const uint64_t(*)[4])b), "m"(*(const uint64_t(*)[4])m)
            : "cc");
    r[0] = t0; r[1] = t1; r[2] = t2; r[3] = t3;
}
#endif

MONT_INLINE void mont_add_auto(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n) {
#ifdef MONT_X86
    if (n == 4 && __builtin_expect(mont_x86_enabled, 1)) { mont_add4_x86_inline(r, a, b, m); return; }
#endif
    mont_add(r, a, b, m, n);
}
MONT_INLINE void mont_sub_auto(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, int n) {
#ifdef MONT_X86
    if (n == 4 && __builtin_expect(mont_x86_enabled, 1)) { mont_sub4_x86_inline(r, a, b, m); return; }
#endif
    mont_sub(r, a, b, m, n);
}

MONT_INLINE void mont_mul_auto(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                               uint64_t inv, int n) {
#ifdef MONT_X86
    if (n == 6) {
        if (__builtin_expect(mont_x86_enabled, 1)) mont_mul6_x86(r, a, b, m, inv);
        else mont_mul6_generic(r, a, b, m, inv);
        return;
    }
    if (n == 4) {
        if (__builtin_expect(mont_x86_enabled, 1)) mont_mul4_x86_inline(r, a, b, m, inv);
        else mont_mul4_generic(r, a, b, m, inv);
        return;
    }
#endif
    mont_mul(r, a, b, m, inv, n);
}

MONT_INLINE void mont_sqr_auto(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv, int n) {
#ifdef MONT_X86
    if (n == 6) {
        if (__builtin_expect(mont_x86_enabled, 1)) mont_sqr6_x86(r, a, m, inv);
        else mont_sqr6_generic(r, a, m, inv);
        return;
    }
    if (n == 4) {
        if (__builtin_expect(mont_x86_enabled, 1)) mont_mul4_x86_inline(r, a, a, m, inv);
        else mont_sqr4_generic(r, a, m, inv);
        return;
    }
#endif
    mont_sqr(r, a, m, inv, n);
}

#endif
