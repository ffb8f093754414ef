/* Small helpers shared by the cuzk CLI's command files: error and usage lines, number and hex
 * arguments, a wall clock. Front-end code: uses the public API only. Thread-safety: the printing
 * helpers write to stderr; call them from the main thread. */
#ifndef CUZK_CLI_UTIL_H
#define CUZK_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/cuzk.h"
#include "cuzk/filecoin.h"

/* "cuzk: error: <message> (<status>)" on stderr; returns the exit code of st (cuzk_exit_code). */
int cli_fail(cuzk_status st, const cuzk_error *e);
/* "cuzk <cmd>: <fmt with arg>" and a hint line naming '<cmd> --help'; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, const char *arg);
/* Decimal integers (no sign for u64); false on junk, overflow or an empty string. */
bool cli_parse_u64(const char *s, uint64_t *out);
bool cli_parse_int(const char *s, long *out);
/* A miner's actor id: decimal ("1000") or its Filecoin ID address, mainnet "f0<id>" or testnet
 * "t0<id>" ("f01000"); false on anything else (f1/f2/f3/f4 addresses name no actor id). */
bool cli_parse_miner_id(const char *s, uint64_t *out);
/* true when the option argv[i] (an "--name") was already given among argv[1..i): the parsers
 * refuse a repeated option instead of letting the last one win silently. */
bool cli_repeated(char **argv, int i);
/* Exactly 2n hex digits (an optional 0x prefix) into out[0..n), in the order written. */
bool cli_parse_hex(const char *s, uint8_t *out, size_t n);
/* The 32-byte value of option opt (ticket, seed, ids): 64 hex digits; else a usage error naming
 * opt and cmd. Returns 0, or 2 after the message. */
int cli_parse_hex32(const char *cmd, const char *opt, const char *v, uint8_t out[32]);
/* A commitment of option opt into out (the 32 bytes as stored: the little-endian field element),
 * taken in any form lotus, Curio and cuzk print: 64 hex digits (the raw bytes); the CID string
 * (multibase base32, 'b' lowercase as lotus and Curio print them, or 'B' uppercase): a comm_r is
 * bagboea4b5abc..., a comm_d baga6ea4seaq...; or the CID's bytes in hex (cid.Bytes(), what Curio
 * sends cuzkd). The CID must be of kind's codec and multihash (cuzk_commitment_from_bytes): a
 * comm_d's CID given for a comm_r is refused naming both. Returns 0, or 2 after a usage message. */
int cli_parse_commitment(const char *cmd, const char *opt, const char *v, cuzk_commitment_kind kind, uint8_t out[32]);
/* 32 bytes little-endian -> the integer in decimal (out: 80 bytes). */
void cli_le32_decimal(char *out, const uint8_t b[32]);
/* n bytes as 2n lowercase hex digits into out (2n + 1 bytes). */
void cli_hex(char *out, const uint8_t *in, size_t n);
/* Monotonic wall clock in milliseconds. */
double cli_wall_ms(void);
/* The whole file into a new malloc'd buffer (*n bytes, plus a NUL), or NULL with err set
 * (CUZK_ERR_IO naming the path). */
uint8_t *cli_slurp(const char *path, size_t *n, cuzk_error *err);

/* The SRS cache's part in the last load of a .params (cuzk_srs_cache_last_use):
 * cli_srs_cache_quiet_warning: with -q no log line is printed, but a refused cache is a warning an
 * operator must see: printed here on stderr ("cuzk: warning: ..."); nothing when !quiet (the log
 * printed it) or no cache was refused.
 * cli_srs_cache_note: when the points came from a cache, appends "(points read from the SRS cache
 * X; retry with CUZK_SRS_CACHE=off or remake it)" to e's message (for a proof that fails to
 * verify or satisfy).
 * cli_srs_cache_json: prints `"srs_cache": {"use": "used"|"refused"|"none"[, "path"|"reason": ..]}, `
 * on stdout (a member of a JSON summary, with its trailing comma). */
void cli_srs_cache_quiet_warning(int quiet);
void cli_srs_cache_note(cuzk_error *e);
void cli_srs_cache_json(void);

#endif
