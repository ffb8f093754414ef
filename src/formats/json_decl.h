/* The snarkjs JSON files of one curve (formats/json.h): a declaration template, included once per
 * curve by formats/json.h with the curve's name space set (src/curves/<curve>/ns.h); every
 * curve-dependent name is CN(name). No include guard. */
typedef struct CN(groth16_proof) {
    CN(g1_affine) a;
    CN(g2_affine) b;
    CN(g1_affine) c;
} CN(groth16_proof);

typedef struct CN(groth16_vk) {
    CN(g1_affine) alpha1;
    CN(g1_affine) beta1;    /* not in snarkjs's JSON (zeroed there); present in bellperson's vk */
    CN(g2_affine) beta2, gamma2;
    CN(g1_affine) delta1;   /* likewise bellperson only */
    CN(g2_affine) delta2;
    uint32_t n_public;  /* public inputs; ic has n_public + 1 points */
    CN(g1_affine) *ic;      /* owned; free with groth16_vk_free */
} CN(groth16_vk);
void CN(groth16_vk_free)(CN(groth16_vk) *vk);

cuzk_status CN(proof_json_write)(const char *path, const CN(groth16_proof) *p, cuzk_error *err);
cuzk_status CN(proof_json_read)(CN(groth16_proof) *p, const char *path, cuzk_error *err);
/* public.json: n values (Fr, Montgomery in memory). read allocates *out (caller frees). */
cuzk_status CN(public_json_write)(const char *path, const CN(fr) *pub, size_t n, cuzk_error *err);
cuzk_status CN(public_json_read)(CN(fr) **out, size_t *n, const char *path, cuzk_error *err);
/* verification_key.json. The writer also writes vk_alphabeta_12 = e(alpha1, beta2) (computed
 * with the curve's pairing, as snarkjs does); readers ignore it. */
cuzk_status CN(vk_json_read)(CN(groth16_vk) *vk, const char *path, cuzk_error *err);
cuzk_status CN(vk_json_write)(const char *path, const CN(groth16_vk) *vk, cuzk_error *err);
/* vk as verification_key.json text (snarkjs's keys and layout), malloc'd; NULL when out of memory. */
char *CN(vk_json_text)(const CN(groth16_vk) *vk);

/* The readers above over len bytes of memory (JSON text, need not be NUL-terminated); name
 * stands for the path in messages (NULL: "<memory>"). Same checks and statuses. */
cuzk_status CN(proof_json_read_mem)(CN(groth16_proof) *p, const char *data, size_t len, const char *name, cuzk_error *err);
cuzk_status CN(public_json_read_mem)(CN(fr) **out, size_t *n, const char *data, size_t len, const char *name, cuzk_error *err);
cuzk_status CN(vk_json_read_mem)(CN(groth16_vk) *vk, const char *data, size_t len, const char *name, cuzk_error *err);
/* proof.json / public.json as the writers above write them, as malloc'd NUL-terminated text
 * (caller frees); NULL when out of memory. */
char *CN(proof_json_text)(const CN(groth16_proof) *p);
char *CN(public_json_text)(const CN(fr) *pub, size_t n);

/* Reads a proof.json (is_vk 0) or verification_key.json (is_vk 1) file of this curve and frees
 * it: the checks of the readers above (values canonical, points on their curves and in their
 * subgroups). For `cuzk info`. */
cuzk_status CN(json_check_file)(const char *path, int is_vk, cuzk_error *err);
