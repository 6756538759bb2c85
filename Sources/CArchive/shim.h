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

#endif
