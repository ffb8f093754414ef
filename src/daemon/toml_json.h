/* toml_json: reads a TOML file (toml++ from Debian's libtomlplusplus) into a jansson tree, so
 * cuzkd's C code validates its configuration with one JSON reader. Tables become objects, arrays
 * arrays, strings/integers/floats/booleans the same JSON types; dates and times become strings.
 * Integers keep 64 bits (json_integer). */
#ifndef CUZKD_TOML_JSON_H
#define CUZKD_TOML_JSON_H

#include <jansson.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns a new reference, or NULL with "path:line:col: reason" in err. */
json_t *toml_json_load_file(const char *path, char *err, size_t err_cap);

#ifdef __cplusplus
}
#endif
#endif
