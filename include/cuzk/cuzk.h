/* cuzk: a Groth16 proving engine for BLS12-381 and BN254 (circom's bn128), C11 host code with an
 * optional CUDA backend.
 *
 * This header holds what every part of the public API shares: the status codes, the optional
 * caller-owned error detail, and the log callback. The library never prints; it logs through
 * the callback set here (default: none).
 *
 * Thread-safety: cuzk_status_str and cuzk_error_set are thread-safe. cuzk_set_log is not: call it
 * once, before other threads use the library.
 */
#ifndef CUZK_CUZK_H
#define CUZK_CUZK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of these headers (compile time). The loaded libcuzk.so reports its own at run time:
 * cuzk_version_string() and cuzk_git_commit(). */
#define CUZK_VERSION "0.1.0"

/* Marks every public declaration: the library is built with hidden visibility, so only what is
 * marked here is exported from libcuzk.so (every exported symbol starts with cuzk_; the test
 * `symbols` checks both). Expands to nothing for compilers without ELF visibility. The build
 * predefines it empty for internal copies of API code (the BN254 instance of the curve-generic
 * sources), which stay hidden. */
#ifndef CUZK_API
#if defined(__GNUC__) || defined(__clang__)
#define CUZK_API __attribute__((visibility("default")))
#else
#define CUZK_API
#endif
#endif

/* Status of every fallible call. Three classes are kept apart: misuse by the caller
 * (CUZK_ERR_ARG), bad data (FORMAT, CURVE, POINT, UNSAT, INVALID), and the environment
 * (IO, NOMEM, NOMEM_DEVICE, DEVICE, UNSUPPORTED, RANDOM); CANCELLED and BUSY are outcomes of
 * requests the caller made (cancel, evict). */
typedef enum cuzk_status {
    CUZK_OK = 0,
    CUZK_ERR_ARG = 1,          /* NULL pointer, wrong size, inconsistent arguments */
    CUZK_ERR_IO = 2,           /* open/read/write/mmap failed (errno in cuzk_error.sys_errno) */
    CUZK_ERR_FORMAT = 3,       /* file is truncated, has a wrong magic, section or size */
    CUZK_ERR_CURVE = 4,        /* file is for another curve, or a field modulus does not match */
    CUZK_ERR_POINT = 5,        /* an invalid curve point: off the curve, outside the prime-order
                                  subgroup, at infinity where forbidden, or bad encoding flags */
    CUZK_ERR_MISMATCH = 6,     /* two inputs do not belong together (zkey vs witness sizes, ...) */
    CUZK_ERR_UNSAT = 7,        /* the witness does not satisfy the constraint system */
    CUZK_ERR_INVALID = 8,      /* a proof did not verify */
    CUZK_ERR_NOMEM = 9,        /* host allocation failed */
    CUZK_ERR_NOMEM_DEVICE = 10,/* GPU allocation failed */
    CUZK_ERR_DEVICE = 11,      /* a CUDA call failed; the device context may be dead */
    CUZK_ERR_UNSUPPORTED = 12, /* valid input that this build does not handle (e.g. bn128) */
    CUZK_ERR_RANDOM = 13,      /* the OS random number generator failed */
    CUZK_ERR_CANCELLED = 14,   /* the work was cancelled by the caller before it completed */
    CUZK_ERR_BUSY = 15         /* the object is in use (e.g. evicting an SRS a proof holds) */
} cuzk_status;

/* Short English description of a status ("file format error"). Never NULL. */
CUZK_API const char *cuzk_status_str(cuzk_status st);

/* The version of the loaded library ("0.1.0"; equal to CUZK_VERSION when headers and library
 * match). Static string, never NULL. Thread-safe. */
CUZK_API const char *cuzk_version_string(void);
/* The git commit the loaded library was built from: the short hash ("1a2b3c4"); for a build from a
 * source archive "<hash> (source archive)"; "none (not built from git)" when the sources were not
 * a git checkout or git was missing at configure time. Static string, never NULL. Thread-safe. */
CUZK_API const char *cuzk_git_commit(void);

/* A finer reason for some failures (cuzk_error.detail), for callers that act on it: branch on
 * it, never on the message text (which may change). */
typedef enum cuzk_error_detail {
    CUZK_DETAIL_NONE = 0,         /* no finer reason: every failure not listed below */
    CUZK_DETAIL_PUBLIC_COUNT = 1  /* CUZK_ERR_MISMATCH from a verification (cuzk_verify and the
                                     verify calls over files): the number of public inputs given
                                     differs from the verification key's */
} cuzk_error_detail;

/* Optional detail for a failed call. Caller-owned; the library fills it and never allocates on
 * the error path. Pass NULL to any `err` argument to skip it. `msg` is one line, no newline. */
typedef struct cuzk_error {
    cuzk_status code;
    int sys_errno;      /* errno at the failure, or 0 */
    int cuda_error;     /* cudaError_t at the failure, or 0 */
    cuzk_error_detail detail; /* CUZK_DETAIL_*: set by the failing call; cuzk_error_set resets it
                                 to CUZK_DETAIL_NONE */
    const char *file;   /* source file of the library where it was raised (static string) */
    int line;
    char msg[512];
} cuzk_error;

/* Fill *err (if not NULL) and return code. printf-style message. */
CUZK_API cuzk_status cuzk_error_set(cuzk_error *err, cuzk_status code, const char *file, int line,
                           const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* How thoroughly a loader checks the points of a key or parameter file (bellperson .params):
 *   NONE   no checks: points are converted as they are (a corrupt file gives wrong proofs, never
 *          a crash). Only for files checked before (cuzk info --full-check) and trusted since.
 *   CURVE  flag bits, canonical coordinates (< p), on the curve, not the point at infinity where
 *          the format forbids it. The default (CUZK_CHECK_DEFAULT).
 *   FULL   CURVE plus membership of the prime-order subgroup (Scott's endomorphism tests,
 *          eprint 2021/1130); about 100x the cost of CURVE per point.
 * Sizes and counts are always checked, whatever the level. */
typedef enum cuzk_check_level {
    CUZK_CHECK_DEFAULT = 0, /* = CUZK_CHECK_CURVE */
    CUZK_CHECK_NONE = 1,
    CUZK_CHECK_CURVE = 2,
    CUZK_CHECK_FULL = 3
} cuzk_check_level;
/* Short name of a level ("none", "curve", "full"); "curve" for DEFAULT. Never NULL. */
CUZK_API const char *cuzk_check_level_str(cuzk_check_level level);

/* Progress of a long operation: `done` of `total` units so far, in the named part (`what`: a short
 * static string such as "h", valid during the call). The units are those of the call that takes
 * the callback: file bytes for loads (a .params file, an SRS: then `what` is a section and the last
 * call of a successful load has done == total), work items of the stage for setups and circuit
 * writing (total 0: not known yet). Calls never overlap: one at a time, on the thread that started
 * the operation (setups also from their helper threads, still one at a time); once at the start
 * (done 0), then at most a few times a second. Must not call back into the operation that reports.
 * The one progress type of the API (include/cuzk/groth16.h, filecoin.h, bench.h use it too). */
typedef void (*cuzk_progress_fn)(void *user, const char *what, uint64_t done, uint64_t total);

/* Log levels and the log callback. `msg` is one line without newline, valid during the call. */
typedef enum { CUZK_LOG_ERROR = 0, CUZK_LOG_WARN = 1, CUZK_LOG_INFO = 2, CUZK_LOG_DEBUG = 3 } cuzk_log_level;
typedef void (*cuzk_log_fn)(void *user, cuzk_log_level level, const char *msg);
CUZK_API void cuzk_set_log(cuzk_log_fn fn, void *user, cuzk_log_level max_level);

/* The number of CPU threads that every "nthreads = 0" (or "0: all online CPUs") of the API means,
 * process-wide. n >= 1 sets it; n <= 0 restores the default, the online CPUs. The library reads no
 * environment variable for it (the cuzk programs map $CUZK_THREADS onto it). Thread-safe
 * (atomic); calls already running keep the count they started with. */
CUZK_API void cuzk_set_threads(int n);
/* What "nthreads = 0" means now: the count cuzk_set_threads set, else the online CPUs (>= 1).
 * Thread-safe. */
CUZK_API int cuzk_threads(void);

#ifdef __cplusplus
}
#endif
#endif
