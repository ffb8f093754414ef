/* Internal: the iden3 binary container shared by .zkey, .wtns and .r1cs (FORMATS.md section 0),
 * and the field-prime check of their headers.
 *
 * Container: 4-byte magic, u32 version, u32 nSections, then nSections x (u32 id, u64 size,
 * payload), all little-endian. iden3_parse reads the table once and validates it: every
 * section lies inside the file, no id occurs twice, nothing follows the last section. Ids
 * >= IDEN3_MAX_ID are kept out of the table (no cuzk reader uses them) but still checked for
 * bounds and listed in order for file_describe.
 */
#ifndef CUZK_FORMATS_IDEN3_H
#define CUZK_FORMATS_IDEN3_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "formats/mapped_file.h"

#define IDEN3_MAX_ID 32

typedef struct iden3_section {
    bool present;
    uint64_t offset; /* of the payload, from the start of the file */
    uint64_t size_bytes;
} iden3_section;

typedef struct iden3_file {
    uint32_t version;
    uint32_t n_sections;
    iden3_section sec[IDEN3_MAX_ID]; /* indexed by id */
} iden3_file;

/* Parses and validates the container. `kind` ("zkey") names the file in messages.
 * CUZK_ERR_FORMAT for a wrong magic, a version other than `version`, a truncated table,
 * a section past EOF, a duplicated id, trailing bytes. */
cuzk_status iden3_parse(iden3_file *t, const mapped_file *f, const char magic[4], uint32_t version,
                        const char *kind, cuzk_error *err);
/* CUZK_ERR_FORMAT "<kind>: section <id> missing" if absent; otherwise a cursor over it. */
cuzk_status iden3_section_open(byte_cursor *c, const iden3_file *t, const mapped_file *f, uint32_t id,
                               const char *kind, cuzk_error *err);

/* Which prime a header holds. */
typedef enum { PRIME_BLS12_381_R, PRIME_BLS12_381_Q, PRIME_BN254_R, PRIME_BN254_Q, PRIME_OTHER } prime_id;
prime_id iden3_identify_prime(const uint8_t *p, uint32_t n8);
const char *prime_curve_name(prime_id id);
/* Checks that the n8-byte little-endian prime `p` is `want`. CUZK_ERR_CURVE when it is not, the
 * message "<kind>: <path>: ..." (naming both curves when the file is for the other one). */
cuzk_status iden3_check_prime(const uint8_t *p, uint32_t n8, prime_id want, const char *kind, const char *path,
                              cuzk_error *err);

#endif
