/* Helpers shared by the circuits and filecoin suites (defined in test_circuits.c). */
#ifndef CUZK_TEST_FILECOIN_H
#define CUZK_TEST_FILECOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "circuit/cs.h"

/* A value from tests/fixtures/filecoin/model_counts.txt: line "<kind> <name> ... key value". */
bool model_lookup(const char *kind, const char *name, const char *key, uint64_t *out);
bool model_lookup_str(const char *kind, const char *name, const char *key, char *out, size_t cap);
/* Finishes c (CS_MATRICES | CS_WITNESS) and checks its witness against every constraint. */
bool cs_check_recorded(cs *c, uint32_t *bad_row, char *msg, size_t cap);
void fr_from_hex_be(fr *out, const char *hex);

#endif
