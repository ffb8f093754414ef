/* x86-64 MULX/ADCX/ADOX Montgomery multiplication (src/ff/mont_x86.h) and the run-time switch.
 *
 * Layout of one CIOS round i (n limbs, accumulator t_0..t_n in registers, t_n = 0 on entry):
 *   rdx = b[i]; clear CF and OF
 *   for j: (hi, lo) = rdx * a[j]; t_j += lo (ADCX, CF chain); t_{j+1} += hi (ADOX, OF chain)
 *   t_n += CF
 *   rdx = q = t_0 * inv mod 2^64; clear CF and OF
 *   for j: (hi, lo) = q * m[j];   t_j += lo (ADCX);              t_{j+1} += hi (ADOX)
 *   t_n += CF                      (t_0 is now 0: it becomes the next round's t_n)
 *   shift: the registers rotate one place, no data moves.
 * Bounds (m < 2^(64n-1), a, b < m): the accumulator stays < 2m < 2^(64n) between rounds and below
 * 2^(64(n+1)) inside one, so no carry leaves t_n and the OF chain's last carry is 0. After n
 * rounds t < 2m: one conditional subtraction of m (SUB/SBB, CMOVNC) gives the reduced result.
 */
#include "ff/mont_x86.h"
#include "ff/vec52.h"

#include <stdlib.h>
#include <string.h>

#ifdef MONT_X86
#include <cpuid.h>

bool mont_x86_enabled = false;
static bool mont_x86_default = false; /* CPU support and not CUZK_NO_ASM */
bool ff_vec52_enabled = false;
static bool ff_vec52_default = false;

static bool cpu_has_bmi2_adx(void) {
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) < 7) return false;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    (void)eax; (void)ecx; (void)edx;
    return (ebx & (1u << 8)) && (ebx & (1u << 19)); /* BMI2, ADX */
}

/* AVX-512F and IFMA (CPUID leaf 7: EBX bits 16 and 21) with the OS saving the opmask and ZMM
 * state (CPUID leaf 1 ECX bit 27 OSXSAVE, then XCR0 bits 1, 2, 5, 6, 7) */
static bool cpu_has_avx512_ifma(void) {
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) < 7) return false;
    __cpuid(1, eax, ebx, ecx, edx);
    if (!(ecx & (1u << 27))) return false;
    unsigned xlo, xhi;
    __asm__("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
    (void)xhi;
    if ((xlo & 0xe6u) != 0xe6u) return false;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    return (ebx & (1u << 16)) && (ebx & (1u << 21));
}

static bool env_on(const char *name) {
    const char *e = getenv(name);
    return e && *e && strcmp(e, "0") != 0;
}

/* CUZK_NO_ASM (all asm off: the portable C) and CUZK_NO_IFMA (only the 8-lane IFMA code off: the
 * scalar MULX/ADX code stays) are read here on purpose, not through the options: they are not
 * tuning knobs but diagnostic switches (the same results through another path, to tell an
 * arithmetic fault from another, or to time one path against the other), and they must act
 * before the first multiplication of the process, which may come from any entry point; the
 * results never depend on them. */
__attribute__((constructor)) static void mont_x86_init(void) {
    const bool off = env_on("CUZK_NO_ASM");
    mont_x86_default = cpu_has_bmi2_adx() && !off;
    mont_x86_enabled = mont_x86_default;
    ff_vec52_default = !off && !env_on("CUZK_NO_IFMA") && cpu_has_avx512_ifma();
    ff_vec52_enabled = ff_vec52_default;
}

void ff_force_generic(bool on) {
    mont_x86_enabled = !on && mont_x86_default;
    ff_vec52_enabled = !on && ff_vec52_default;
}
void ff_force_scalar(bool on) { ff_vec52_enabled = !on && ff_vec52_default; }
bool ff_vec52_active(void) { return ff_vec52_enabled; }
bool ff_asm_active(void) { return mont_x86_enabled; }

/* ---- the asm --------------------------------------------------------------------------------
 * Operands: accumulator registers %[x0].. (rotating roles), %[lo] %[hi] product halves, %[d] rdx,
 * %[a] %[b] %[m] pointers, %[inv]. The asm reads a, b, m through the pointers ("memory" clobber:
 * "m" operands for the arrays would each need one more register, and mul6 already uses 13 of the
 * 14 that -fno-omit-frame-pointer leaves); results leave in registers and C stores them, so r
 * may alias a or b. */
#define MX_(src, tl, th)                                                                         \
    "mulxq " src ", %[lo], %[hi]\n\t"                                                           \
    "adcxq %[lo], %[" #tl "]\n\t"                                                               \
    "adoxq %[hi], %[" #th "]\n\t"

/* t += b[i] * a, then t += q * m with q = t0 * inv, for 6 limbs */
#define ROUND6_(i, t0, t1, t2, t3, t4, t5, t6)                                                   \
    "movq " #i "*8(%[b]), %[d]\n\t"                                                             \
    "xorl %k[lo], %k[lo]\n\t"                                                                   \
    MX_("0*8(%[a])", t0, t1) MX_("1*8(%[a])", t1, t2) MX_("2*8(%[a])", t2, t3)                  \
    MX_("3*8(%[a])", t3, t4) MX_("4*8(%[a])", t4, t5) MX_("5*8(%[a])", t5, t6)                  \
    "adcq $0, %[" #t6 "]\n\t"                                                                   \
    "movq %[" #t0 "], %[d]\n\t"                                                                 \
    "imulq %[inv], %[d]\n\t"                                                                    \
    "xorl %k[lo], %k[lo]\n\t"                                                                   \
    MX_("0*8(%[m])", t0, t1) MX_("1*8(%[m])", t1, t2) MX_("2*8(%[m])", t2, t3)                  \
    MX_("3*8(%[m])", t3, t4) MX_("4*8(%[m])", t4, t5) MX_("5*8(%[m])", t5, t6)                  \
    "adcq $0, %[" #t6 "]\n\t"

__attribute__((target("bmi2,adx")))
void mont_mul6_x86(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t inv) {
    uint64_t x0, x1, x2, x3, x4, x5, x6, lo, hi, d;
    uint64_t ap = (uint64_t)(uintptr_t)a, bp = (uint64_t)(uintptr_t)b;
    __asm__(
        "xorl %k[x0], %k[x0]\n\t" "xorl %k[x1], %k[x1]\n\t" "xorl %k[x2], %k[x2]\n\t"
        "xorl %k[x3], %k[x3]\n\t" "xorl %k[x4], %k[x4]\n\t" "xorl %k[x5], %k[x5]\n\t"
        "xorl %k[x6], %k[x6]\n\t"
        ROUND6_(0, x0, x1, x2, x3, x4, x5, x6)
        ROUND6_(1, x1, x2, x3, x4, x5, x6, x0)
        ROUND6_(2, x2, x3, x4, x5, x6, x0, x1)
        ROUND6_(3, x3, x4, x5, x6, x0, x1, x2)
        ROUND6_(4, x4, x5, x6, x0, x1, x2, x3)
        ROUND6_(5, x5, x6, x0, x1, x2, x3, x4)
        /* result limbs 0..5 in x6 x0 x1 x2 x3 x4; x5 is free */
        "movq %[x6], %[lo]\n\t" "subq 0*8(%[m]), %[lo]\n\t"
        "movq %[x0], %[hi]\n\t" "sbbq 1*8(%[m]), %[hi]\n\t"
        "movq %[x1], %[d]\n\t"  "sbbq 2*8(%[m]), %[d]\n\t"
        "movq %[x2], %[x5]\n\t" "sbbq 3*8(%[m]), %[x5]\n\t"
        "movq %[x3], %[a]\n\t"  "sbbq 4*8(%[m]), %[a]\n\t"
        "movq %[x4], %[b]\n\t"  "sbbq 5*8(%[m]), %[b]\n\t"
        "cmovncq %[lo], %[x6]\n\t" "cmovncq %[hi], %[x0]\n\t" "cmovncq %[d], %[x1]\n\t"
        "cmovncq %[x5], %[x2]\n\t" "cmovncq %[a], %[x3]\n\t" "cmovncq %[b], %[x4]\n\t"
        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4),
          [x5] "=&r"(x5), [x6] "=&r"(x6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d),
          [a] "+r"(ap), [b] "+r"(bp)
        : [m] "r"(m), [inv] "rm"(inv)
        : "cc", "memory");
    (void)x5; (void)lo; (void)hi; (void)d; (void)ap; (void)bp;
    r[0] = x6; r[1] = x0; r[2] = x1; r[3] = x2; r[4] = x3; r[5] = x4;
}

/* the inline CIOS of mont_x86.h, out of line for the dispatch of mont_mul_auto's callers that
 * take its address or want no inlining */
void mont_mul4_x86(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t inv) {
    mont_mul4_x86_inline(r, a, b, m, inv);
}

/* Squaring is the product with itself: a dedicated off-diagonal squaring is left for later. */
__attribute__((target("bmi2,adx")))
void mont_sqr6_x86(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv) {
    mont_mul6_x86(r, a, a, m, inv);
}

__attribute__((target("bmi2,adx")))
void mont_sqr4_x86(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv) {
    mont_mul4_x86(r, a, a, m, inv);
}

void mont_mul6_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t inv) {
    mont_mul(r, a, b, m, inv, 6);
}
void mont_mul4_generic(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m, uint64_t inv) {
    mont_mul(r, a, b, m, inv, 4);
}
void mont_sqr6_generic(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv) {
    mont_sqr(r, a, m, inv, 6);
}
void mont_sqr4_generic(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv) {
    mont_sqr(r, a, m, inv, 4);
}

#else /* not x86-64: the generic C only */

void ff_force_generic(bool on) { (void)on; }
void ff_force_scalar(bool on) { (void)on; }
bool ff_asm_active(void) { return false; }
bool ff_vec52_active(void) { return false; }

#endif
