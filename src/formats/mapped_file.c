/* Read-only memory-mapped files (mapped_file.h). */
#include "formats/mapped_file.h"
#include "util/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

cuzk_status mapped_file_open(mapped_file *f, const char *path, cuzk_error *err) {
    memset(f, 0, sizeof *f);
    if (!path) return ERR(err, CUZK_ERR_ARG, "mapped_file_open: NULL path");
    snprintf(f->path, sizeof f->path, "%s", path);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO without a writer must not block: refused below */
    if (fd < 0) return ERR(err, CUZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return ERR(err, CUZK_ERR_IO, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return ERR(err, CUZK_ERR_IO, "%s: not a regular file", path);
    }
    if (st.st_size == 0) { /* empty file: nothing to map */
        close(fd);
        return CUZK_OK;
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (m == MAP_FAILED) {
        errno = e;
        /* out of address space or memory (ulimit -v, a map count limit) is memory, not I/O */
        return ERR(err, e == ENOMEM ? CUZK_ERR_NOMEM : CUZK_ERR_IO, "%s: cannot mmap %lld bytes: %s", path,
                   (long long)st.st_size, strerror(e));
    }
    /* loaders read front to back once */
    (void)madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
    f->m_data = m;
    f->size_bytes = (size_t)st.st_size;
    return CUZK_OK;
}

void mapped_file_close(mapped_file *f) {
    if (!f) return;
    if (f->m_data && !f->borrowed) munmap((void *)f->m_data, f->size_bytes);
    f->m_data = NULL;
    f->size_bytes = 0;
}

void mapped_file_borrow(mapped_file *f, const void *data, size_t size, const char *name) {
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", name ? name : "<memory>");
    f->m_data = size ? data : NULL;
    f->size_bytes = size;
    f->borrowed = 1;
}
