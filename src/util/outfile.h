/* Writing output files without ever leaving a partial one.
 *
 * An output is written to "<path>.tmp.<pid>" and renamed over path when complete, so a failure
 * (or a crash) never leaves half a file at path. An output that exists and is not a regular file
 * (/dev/null, a FIFO, a device) is written in place instead: renaming over it would replace the
 * node. An output that is a symbolic link to a file is written to the link's target (temporary
 * beside the target, renamed over it): the link stays, as with a shell redirection. Temporary files in progress are kept in a small registry (16 entries) so that a signal
 * handler can remove them (outfile_remove_partials, behind cuzk_remove_partial_outputs).
 * Thread-safe: the registry is locked; outfile_remove_partials takes no lock (signal handlers).
 */
#ifndef CUZK_UTIL_OUTFILE_H
#define CUZK_UTIL_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/cuzk.h"

/* Whether path exists and is neither a regular file nor a directory (written in place). */
bool outfile_is_special(const char *path);

/* The name to write path's content to: path itself when it is special, else "<path>.tmp.<pid>",
 * registered for outfile_remove_partials. buf: cap bytes (4200 holds any path the API takes). */
void outfile_tmp_name(char *buf, size_t cap, const char *path);

/* Renames tmp over path (nothing to do when tmp is path: written in place) and forgets tmp.
 * CUZK_ERR_IO when the rename fails (tmp is then removed; err gives the reason). */
cuzk_status outfile_commit(const char *tmp, const char *path, cuzk_error *err);

/* After a failed write of tmp (the outfile_tmp_name of path): where err's message names the
 * temporary ("cannot create /out/proof.json.tmp.123: ..."), it names path instead, the output the
 * user asked for. err may be NULL. Thread-safe (touches only *err). */
void outfile_name_output(cuzk_error *err, const char *tmp, const char *path);

/* Removes a temporary, or an output this process wrote: never a device, FIFO or directory. */
void outfile_discard(const char *path);

/* Unlinks every registered temporary. Async-signal-safe (only unlink). */
void outfile_remove_partials(void);

/* The checks of cuzk_check_outputs (include/cuzk/groth16.h), shared by the file API (src/files)
 * and setup: no output is a directory, an input (same path, or same device and inode) or another
 * output (special files excepted), and every output's directory is writable: a temporary is created
 * there and removed at once (permission bits alone do not tell: root passes access() on /proc).
 * ins[j] may be NULL. CUZK_ERR_ARG or CUZK_ERR_IO naming the path. Leaves nothing behind.
 * Thread-safe. */
cuzk_status outfile_check_paths(const char *const *ins, int n_in, const char *const *outs, int n_out, cuzk_error *err);

#endif
