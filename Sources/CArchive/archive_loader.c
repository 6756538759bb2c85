// libarchive, loaded on the first zip written (see include/CArchive.h).
//
// Each wrapper calls the function of the same name without the `strata_`
// prefix, looked up once (CLibraryLoader). The library is opened by its soname,
// the one the linker would have recorded, so the same libarchive13 package
// serves it.

#include "CArchive.h"

#include <CLibraryLoader.h>
#include <pthread.h>

#define STRATA_ARCHIVE_FUNCTIONS(X) \
    X(struct archive *, archive_write_new, (void)) \
    X(int, archive_write_set_format_zip, (struct archive *)) \
    X(int, archive_write_set_format_option, (struct archive *, const char *, const char *, const char *)) \
    X(int, archive_write_set_bytes_in_last_block, (struct archive *, int)) \
    X(int, archive_write_open_fd, (struct archive *, int)) \
    X(int, archive_write_zip_set_compression_deflate, (struct archive *)) \
    X(int, archive_write_zip_set_compression_store, (struct archive *)) \
    X(int, archive_write_header, (struct archive *, struct archive_entry *)) \
    X(la_ssize_t, archive_write_data, (struct archive *, const void *, size_t)) \
    X(int, archive_write_finish_entry, (struct archive *)) \
    X(int, archive_write_close, (struct archive *)) \
    X(int, archive_write_fail, (struct archive *)) \
    X(int, archive_write_free, (struct archive *)) \
    X(const char *, archive_error_string, (struct archive *)) \
    X(struct archive_entry *, archive_entry_new, (void)) \
    X(void, archive_entry_free, (struct archive_entry *)) \
    X(void, archive_entry_set_pathname_utf8, (struct archive_entry *, const char *)) \
    X(void, archive_entry_set_filetype, (struct archive_entry *, unsigned int)) \
    X(void, archive_entry_set_perm, (struct archive_entry *, __LA_MODE_T)) \
    X(void, archive_entry_set_size, (struct archive_entry *, la_int64_t))

STRATA_LIBRARY(library, STRATA_ARCHIVE_FUNCTIONS, "libarchive.so.13",
               "libarchive (install the libarchive13 package)")

struct archive *strata_archive_write_new(void) {
    return library_load_error() == NULL ? library.archive_write_new() : NULL;
}

const char *strata_archive_load_error(void) {
    return library_load_error();
}

// Every other function takes a handle strata_archive_write_new or
// strata_archive_entry_new returned, so the library is loaded by then.
int strata_archive_write_set_format_zip(struct archive *a) {
    return library.archive_write_set_format_zip(a);
}
int strata_archive_write_set_format_option(struct archive *a, const char *m, const char *o,
                                           const char *v) {
    return library.archive_write_set_format_option(a, m, o, v);
}
int strata_archive_write_set_bytes_in_last_block(struct archive *a, int bytes) {
    return library.archive_write_set_bytes_in_last_block(a, bytes);
}
int strata_archive_write_open_fd(struct archive *a, int fd) {
    return library.archive_write_open_fd(a, fd);
}
int strata_archive_write_zip_set_compression_deflate(struct archive *a) {
    return library.archive_write_zip_set_compression_deflate(a);
}
int strata_archive_write_zip_set_compression_store(struct archive *a) {
    return library.archive_write_zip_set_compression_store(a);
}
int strata_archive_write_header(struct archive *a, struct archive_entry *e) {
    return library.archive_write_header(a, e);
}
la_ssize_t strata_archive_write_data(struct archive *a, const void *bytes, size_t count) {
    return library.archive_write_data(a, bytes, count);
}
int strata_archive_write_finish_entry(struct archive *a) {
    return library.archive_write_finish_entry(a);
}
int strata_archive_write_close(struct archive *a) { return library.archive_write_close(a); }
int strata_archive_write_fail(struct archive *a) { return library.archive_write_fail(a); }
int strata_archive_write_free(struct archive *a) { return library.archive_write_free(a); }
const char *strata_archive_error_string(struct archive *a) {
    return library.archive_error_string(a);
}
struct archive_entry *strata_archive_entry_new(void) {
    return library_load_error() == NULL ? library.archive_entry_new() : NULL;
}
void strata_archive_entry_free(struct archive_entry *e) { library.archive_entry_free(e); }
void strata_archive_entry_set_pathname_utf8(struct archive_entry *e, const char *name) {
    library.archive_entry_set_pathname_utf8(e, name);
}
void strata_archive_entry_set_filetype(struct archive_entry *e, unsigned int type) {
    library.archive_entry_set_filetype(e, type);
}
void strata_archive_entry_set_perm(struct archive_entry *e, __LA_MODE_T mode) {
    library.archive_entry_set_perm(e, mode);
}
void strata_archive_entry_set_size(struct archive_entry *e, la_int64_t size) {
    library.archive_entry_set_size(e, size);
}
