#ifndef STRATA_CLIBRARYLOADER_H
#define STRATA_CLIBRARYLOADER_H

#include <stddef.h>

/// Opens the shared library `soname` and looks up the `count` functions
/// `names` into `symbols`: for the C targets that load their library on
/// first use instead of linking it, since every linked library is loaded by
/// every command before `main` runs (ARCHITECTURE.md, "A C library").
///
/// Returns 1 when every name was found. Otherwise returns 0 with `failure`
/// saying why: "cannot load <what>: <the loader's reason>", or "<soname> has
/// no <name>". `what` names the library and how to install it.
int strata_load_library(const char *soname, const char *what, const char *const *names,
                        void **symbols, size_t count, char *failure, size_t failure_size);

#endif
