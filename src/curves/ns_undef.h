/* Ends a curve name space (src/curves/<curve>/ns.h): undefines CURVE_NS and the curve facts it
 * set. No include guard: included at every switch of name space. */
#undef CURVE_NS
#undef CURVE_ID
#undef CURVE_NAME
#undef CURVE_SNARKJS_NAME
#undef CURVE_PRIME_Q
#undef CURVE_PRIME_R
#undef CURVE_BELLPERSON
#undef CURVE_GPU_NS
#undef CURVE_GPU_FIXED_BASE
#undef CURVE_FR_TWO_ADICITY
#undef CURVE_EC52
#undef CURVE_G1_B_MONT
#undef CURVE_G2_B_MONT
