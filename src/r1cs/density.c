/* Density bitmaps (r1cs.h): the part that holds no curve type, compiled once. */
#include "r1cs/r1cs.h"

#include <stdlib.h>
#include <string.h>

void r1cs_density_free(r1cs_density *d) {
    if (!d) return;
    free(d->words);
    memset(d, 0, sizeof *d);
}
