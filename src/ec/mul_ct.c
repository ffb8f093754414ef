/* Constant-time scalar multiplication for G1 and G2 (src/ec/ec_ct.h): the generic
 * src/ec/mul_ct_impl.h instantiated per group, with 3b of each curve. */
#include "ec/ec_ct.h"

#include <string.h>

/* G1: b = 4, 3b = 12 */
static void g1_ct_curve_b3(fp *b3) {
    fp one, t;
    fp_one(&one);
    fp_add(&t, &one, &one);   /* 2 */
    fp_add(&t, &t, &one);     /* 3 */
    fp_add(&t, &t, &t);       /* 6 */
    fp_add(b3, &t, &t);       /* 12 */
}

/* G2 (M-twist): b = 4(1 + u), 3b = 12 + 12u */
static void g2_ct_curve_b3(fp2 *b3) {
    g1_ct_curve_b3(&b3->c0);
    b3->c1 = b3->c0;
}

#define EC_G g1
#define EC_F fp
#include "ec/mul_ct_impl.h"
#undef EC_F
#undef EC_G

#define EC_G g2
#define EC_F fp2
#include "ec/mul_ct_impl.h"
#undef EC_F
#undef EC_G
