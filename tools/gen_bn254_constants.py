#!/usr/bin/env python3
"""Generate src/curves/bn254/constants.h: every number of BN254 (alt_bn128, snarkjs "bn128").

Run: python3 tools/gen_bn254_constants.py > src/curves/bn254/constants.h
Python 3 standard library only. The script re-derives and checks what it can (p and r from the
BN parameter u, the generators on their curves and of order r, the twist, the roots of unity,
the Frobenius coefficients) and fails (assert) on any inconsistency.

Sources: BN254 as in EIP-196/197 (Ethereum alt_bn128), go-ethereum crypto/bn256, ffjavascript's
bn128 (the curve snarkjs calls "bn128"): u = 4965661367192848881,
p = 36u^4 + 36u^3 + 24u^2 + 6u + 1, r = 36u^4 + 36u^3 + 18u^2 + 6u + 1,
G1: y^2 = x^3 + 3, generator (1, 2), cofactor 1;
G2: the D-type sextic twist y^2 = x^3 + 3/xi over Fp2 = Fp[u]/(u^2 + 1), xi = 9 + u,
generator from EIP-197. Tower: Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v) (the same tower
as ffjavascript). Roots of unity: snarkjs's (FORMATS.md section 5): nqr^t, nqr the smallest
quadratic non-residue (5), r - 1 = 2^28 t.
Montgomery form: R = 2^256 for both fields, 4 little-endian 64-bit limbs.
"""
U = 4965661367192848881
P = 36 * U**4 + 36 * U**3 + 24 * U**2 + 6 * U + 1
R = 36 * U**4 + 36 * U**3 + 18 * U**2 + 6 * U + 1
assert P == 21888242871839275222246405745257275088696311157297823662689037894645226208583
assert R == 21888242871839275222246405745257275088548364400416034343698204186575808495617
RM = 2**256
N = 4


def limbs(x, n=N):
    return [(x >> (64 * i)) & (2**64 - 1) for i in range(n)]


def arr(x, n=N):
    return "{" + ", ".join("0x%016xull" % v for v in limbs(x, n)) + "}"


def fp_m(x):  # Fp initializer, Montgomery
    return "{" + arr(x * RM % P) + "}"


def fp2_m(a):
    return "{" + fp_m(a[0]) + ", " + fp_m(a[1]) + "}"


# ---- Fp2 arithmetic (u^2 = -1) ----
def f2add(a, b): return ((a[0] + b[0]) % P, (a[1] + b[1]) % P)
def f2sub(a, b): return ((a[0] - b[0]) % P, (a[1] - b[1]) % P)
def f2mul(a, b): return ((a[0] * b[0] - a[1] * b[1]) % P, (a[0] * b[1] + a[1] * b[0]) % P)
def f2inv(a):
    n = pow(a[0] * a[0] + a[1] * a[1], P - 2, P)
    return (a[0] * n % P, (-a[1]) * n % P)
def f2pow(a, e):
    r = (1, 0)
    while e:
        if e & 1: r = f2mul(r, a)
        a = f2mul(a, a)
        e >>= 1
    return r


XI = (9, 1)
B1 = 3
B2 = f2mul((3, 0), f2inv(XI))
# EIP-197 / ffjavascript G2 generator (x = x0 + x1 u, y = y0 + y1 u)
G2X = (10857046999023057135944570762232829481370756359578518086990519993285655852781,
       11559732032986387107991004021392285783925812861821192530917403151452391805634)
G2Y = (8495653923123431417604973247489272438418190587263600148770280649306958101930,
       4082367875863433681332203403145435568316851327593401208105741076214120093531)
G1 = (1, 2)

# ---- generic affine arithmetic (a = 0) to check the generators ----
def make_group(add, sub, mul, inv, zero, one, b):
    def on_curve(pt):
        x, y = pt
        return sub(mul(y, y), add(mul(mul(x, x), x), b)) == zero
    def padd(p1, p2):
        if p1 is None: return p2
        if p2 is None: return p1
        if p1[0] == p2[0]:
            if p1[1] != p2[1] or p1[1] == zero: return None
            three = add(add(one, one), one)
            lam = mul(mul(three, mul(p1[0], p1[0])), inv(add(p1[1], p1[1])))
        else:
            lam = mul(sub(p2[1], p1[1]), inv(sub(p2[0], p1[0])))
        x3 = sub(sub(mul(lam, lam), p1[0]), p2[0])
        return (x3, sub(mul(lam, sub(p1[0], x3)), p1[1]))
    def pmul(pt, k):
        acc = None
        while k:
            if k & 1: acc = padd(acc, pt)
            pt = padd(pt, pt)
            k >>= 1
        return acc
    return on_curve, padd, pmul


g1_on, g1_add, g1_mul = make_group(lambda a, b: (a + b) % P, lambda a, b: (a - b) % P,
                                   lambda a, b: a * b % P, lambda a: pow(a, P - 2, P), 0, 1, B1)
g2_on, g2_add, g2_mul = make_group(f2add, f2sub, f2mul, f2inv, (0, 0), (1, 0), B2)
assert g1_on(G1) and g1_mul(G1, R) is None
assert g2_on((G2X, G2Y)) and g2_mul((G2X, G2Y), R) is None

# ---- twist endomorphism psi(x, y) = (conj(x) cx, conj(y) cy), D-type ----
PSI_CX = f2pow(XI, (P - 1) // 3)
PSI_CY = f2pow(XI, (P - 1) // 2)
def conj(a): return (a[0], (-a[1]) % P)
def psi(pt): return (f2mul(conj(pt[0]), PSI_CX), f2mul(conj(pt[1]), PSI_CY))
G2 = (G2X, G2Y)
assert psi(G2) == g2_mul(G2, P % R)          # psi acts on G2 as [p]
assert (P - R) == 6 * U * U                  # so psi = [6u^2] on G2
H2 = 2 * P - R                               # order of E'(Fp2) is h2 * r
assert (P + 1 - 0) > 0

# ---- Frobenius coefficients of Fp12 = Fp2[w]/(w^6 - xi) ----
assert P % 6 == 1
frob = [[f2pow(XI, j * ((P**k - 1) // 6)) for j in range(1, 6)] for k in range(1, 12)]

# ---- Fr: two-adicity, snarkjs root ----
s, t = 0, R - 1
while t % 2 == 0:
    t //= 2
    s += 1
assert s == 28
nqr = 2
while pow(nqr, (R - 1) // 2, R) != R - 1:
    nqr += 1
assert nqr == 5
ROOT5 = pow(5, t, R)
assert ROOT5 == 19103219067921713944291392827692070036145651957329286315305642004821462161904

# ---- ate loop: NAF of 6u + 2 ----
def naf(k):
    d = []
    while k:
        if k & 1:
            z = 2 - (k % 4)
            k -= z
        else:
            z = 0
        d.append(z)
        k //= 2
    return d
LOOP = naf(6 * U + 2)
assert sum(v * 2**i for i, v in enumerate(LOOP)) == 6 * U + 2

# the final exponentiation of src/curves/bn254/pairing.c (= ffjavascript's): m (p^12 - 1)/r
L0 = 12 * U**3 + 12 * U**2 + 6 * U + 1
L1 = 12 * U**3 + 6 * U**2 + 4 * U
L2 = 12 * U**3 + 6 * U**2 + 6 * U
L3 = 12 * U**3 + 6 * U**2 + 4 * U - 1
M_FE = 2 * U * (6 * U**2 + 3 * U + 1)
assert L0 + L1 * P + L2 * P**2 + L3 * P**3 == M_FE * ((P**4 - P**2 + 1) // R)
FINAL = M_FE * ((P**12 - 1) // R)

out = []
w = out.append
w("/* Generated by tools/gen_bn254_constants.py; do not edit. */")
w("#ifndef CUZK_CURVES_BN254_CONSTANTS_H")
w("#define CUZK_CURVES_BN254_CONSTANTS_H")
w("")
for name, m in (("BN254_FP", P), ("BN254_FR", R)):
    inv = (-pow(m, -1, 2**64)) % 2**64
    w("/* %s: modulus %d bits, %d limbs, R = 2^%d */" % (name, m.bit_length(), N, 64 * N))
    w("#define %s_MODULUS %s" % (name, arr(m)))
    w("#define %s_INV 0x%016xull /* -m^-1 mod 2^64 */" % (name, inv))
    w("#define %s_R %s /* R mod m: Montgomery one */" % (name, arr(RM % m)))
    w("#define %s_R2 %s /* R^2 mod m */" % (name, arr(RM * RM % m)))
    w("#define %s_BITS %d" % (name, m.bit_length()))
    w("")
w("#define BN254_FR_TWO_ADICITY %d" % s)
w("#define BN254_FR_SQRT_NONRESIDUE 5 /* smallest quadratic non-residue mod r */")
w("/* 5^t, t = (r-1)/2^28, canonical: snarkjs's root of unity of order 2^28 (FORMATS.md section 5) */")
w("#define BN254_FR_ROOT_5_CANON %s" % arr(ROOT5))
w("")
w("/* BN parameter u (positive) and 6u^2 = p - r (psi acts on G2 as [6u^2]) */")
w("#define BN254_U 0x%016xull" % U)
w("#define BN254_6U2_INIT %s" % arr(6 * U * U, 2))
w("/* NAF of the ate loop count 6u + 2, least significant digit first */")
w("#define BN254_ATE_LOOP_LEN %d" % len(LOOP))
w("#define BN254_ATE_LOOP_NAF {%s}" % ", ".join(str(v) for v in LOOP))
w("")
w("/* Montgomery-form constants (Fp: {{limbs}}, Fp2: {c0, c1}) */")
w("#define BN254_G1_B_MONT %s /* 3 */" % fp_m(B1))
w("#define BN254_G2_B_MONT %s /* 3/(9 + u) */" % fp2_m(B2))
w("#define BN254_FP_TWO_INV_MONT %s /* 1/2 */" % fp_m(pow(2, P - 2, P)))
w("/* generators: G1 = (1, 2); G2 (EIP-197):")
w(" * x = %d" % G2X[0])
w(" *   + %d u" % G2X[1])
w(" * y = %d" % G2Y[0])
w(" *   + %d u */" % G2Y[1])
w("#define BN254_G1_GENERATOR_MONT {%s, %s}" % (fp_m(G1[0]), fp_m(G1[1])))
w("#define BN254_G2_GENERATOR_MONT {%s, %s}" % (fp2_m(G2X), fp2_m(G2Y)))
w("/* psi(x, y) = (conj(x) cx, conj(y) cy): cx = xi^((p-1)/3), cy = xi^((p-1)/2), xi = 9 + u */")
w("#define BN254_PSI_CX_MONT %s" % fp2_m(PSI_CX))
w("#define BN254_PSI_CY_MONT %s" % fp2_m(PSI_CY))
w("")
w("/* BN254_FP12_FROB_COEFF[k-1][j-1] = xi^(j (p^k - 1)/6), k = 1..11, j = 1..5 (src/ff/tower_impl.h) */")
w("#define BN254_FP12_FROB_COEFF_INIT { \\")
for k in range(11):
    w("    { /* k = %d */ \\" % (k + 1))
    for j in range(5):
        w("        %s%s \\" % (fp2_m(frob[k][j]), "," if j < 4 else ""))
    w("    }%s \\" % ("," if k < 10 else ""))
w("}")
w("")
def int_init(name, x):
    ls = limbs(x, (x.bit_length() + 63) // 64)
    w("#define %s_LIMBS %d" % (name, len(ls)))
    w("#define %s_INIT { \\" % name)
    for i in range(0, len(ls), 4):
        w("    " + ", ".join("0x%016xull" % v for v in ls[i:i + 4]) + ", \\")
    w("}")
w("/* For tests: m (p^12 - 1)/r, m = 2u(6u^2 + 3u + 1) (the exponent of bn254_pairing_final_exponentiation,")
w(" * the same as snarkjs's) and the G2 cofactor")
w(" * h2 = 2p - r (#E'(Fp2) = h2 r), little-endian 64-bit limbs. */")
int_init("BN254_FINAL_EXP", FINAL)
int_init("BN254_G2_COFACTOR", H2)
w("")
w("#endif")
print("\n".join(out))
