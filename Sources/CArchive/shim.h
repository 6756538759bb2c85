#ifndef STRATA_CARCHIVE_SHIM_H
#define STRATA_CARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>

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
