/* Host memory facts for up-front checks (so that a job too large for this machine fails with a
 * clear error instead of being killed by the kernel's OOM killer). */
#ifndef CUZK_UTIL_SYSMEM_H
#define CUZK_UTIL_SYSMEM_H

/* MemAvailable of /proc/meminfo in bytes; -1 when it cannot be read (then callers skip checks). */
double sysmem_available_bytes(void);

#endif
