#ifndef STRATA_CARCHIVE_SHIM_H
#define STRATA_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>

/// libarchive is loaded on first use (archive_loader.c), not linked: it and
/// the seven libraries it needs cost every process about 2 ms at start-up,
/// and only writing a zip uses it. Swift calls these `strata_` wrappers,
/// never libarchive's own functions (the binary does not link them).
/// `strata_archive_write_new` returns NULL when libarchive cannot be
/// loaded; `strata_archive_load_error` then says why.
struct archive *strata_archive_write_new(void);
const char *strata_archive_load_error(void);
int strata_archive_write_set_format_zip(struct archive *);
int strata_archive_write_set_format_option(struct archive *, const char *, const char *, const char *);
int strata_archive_write_set_bytes_in_last_block(struct archive *, int);
int strata_archive_write_open_fd(struct archive *, int);
int strata_archive_write_zip_set_compression_deflate(struct archive *);
int strata_archive_write_zip_set_compression_store(struct archive *);
int strata_archive_write_header(struct archive *, struct archive_entry *);
la_ssize_t strata_archive_write_data(struct archive *, const void *, size_t);
int strata_archive_write_finish_entry(struct archive *);
int strata_archive_write_close(struct archive *);
int strata_archive_write_fail(struct archive *);
int strata_archive_write_free(struct archive *);
const char *strata_archive_error_string(struct archive *);
struct archive_entry *strata_archive_entry_new(void);
void strata_archive_entry_free(struct archive_entry *);
void strata_archive_entry_set_pathname_utf8(struct archive_entry *, const char *);
void strata_archive_entry_set_filetype(struct archive_entry *, unsigned int);
void strata_archive_entry_set_perm(struct archive_entry *, __LA_MODE_T);
void strata_archive_entry_set_size(struct archive_entry *, la_int64_t);

/// inflateInit2 is a macro over inflateInit2_; Swift cannot import macros
/// that take arguments.
static inline int strata_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}

/// deflateInit2 is a macro as well; raw deflate (no zlib header) at the given
/// level, as Core Data's Z_MODELCACHE uses.
static inline int strata_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}

/// syncfs(2) flushes one file system (the one holding the descriptor's
/// file): a zip extraction of thousands of files then costs one journal
/// commit instead of one fsync(2) per file. glibc declares it only under
/// _GNU_SOURCE, which Swift's Glibc module is not built with, so the
/// declaration is repeated here.
int syncfs(int fd);

static inline int strata_syncfs(int descriptor) {
    return syncfs(descriptor);
}

#endif
