#ifndef STRATA_CLIBRARYLOADER_H
#define STRATA_CLIBRARYLOADER_H

#include <pthread.h>
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

/// Declares, in the file that uses it, what a target that loads `SONAME` on
/// first use needs, from the X-macro list `FUNCTIONS` (entries
/// `X(result, name, (parameters))`; a name that is a macro, as ICU's
/// versioned ones are, is looked up by what it expands to):
///
/// - `TABLE`, a static struct with a pointer per function
///   (`TABLE.uregex_open(…)`);
/// - `TABLE_load_error()`, NULL once the library is loaded (loading it on
///   the first call, once for all threads), otherwise why it could not be,
///   naming `WHAT`.
#define STRATA_LIBRARY(TABLE, FUNCTIONS, SONAME, WHAT)                                           \
    static struct {                                                                               \
        FUNCTIONS(STRATA_LIBRARY_POINTER)                                                         \
    } TABLE;                                                                                      \
    static pthread_once_t TABLE##_once = PTHREAD_ONCE_INIT;                                       \
    static const char *TABLE##_failure;                                                           \
    static char TABLE##_reason[512];                                                              \
    static void TABLE##_load(void) {                                                              \
        static const char *const names[] = {FUNCTIONS(STRATA_LIBRARY_NAME)};                      \
        void *symbols[sizeof names / sizeof *names];                                              \
        if (!strata_load_library(SONAME, WHAT, names, symbols, sizeof names / sizeof *names,      \
                                 TABLE##_reason, sizeof TABLE##_reason)) {                         \
            TABLE##_failure = TABLE##_reason;                                                     \
            return;                                                                               \
        }                                                                                         \
        size_t index = 0;                                                                         \
        __typeof__(&TABLE) table = &TABLE;                                                        \
        FUNCTIONS(STRATA_LIBRARY_ASSIGN)                                                          \
    }                                                                                             \
    static const char *TABLE##_load_error(void) {                                                 \
        pthread_once(&TABLE##_once, TABLE##_load);                                                \
        return TABLE##_failure;                                                                   \
    }

// The parts of STRATA_LIBRARY's expansion, one per use of the list.
#define STRATA_LIBRARY_TEXT(name) STRATA_LIBRARY_QUOTED(name)
#define STRATA_LIBRARY_QUOTED(name) #name
#define STRATA_LIBRARY_POINTER(result, name, parameters) result(*name) parameters;
#define STRATA_LIBRARY_NAME(result, name, parameters) STRATA_LIBRARY_TEXT(name),
#define STRATA_LIBRARY_ASSIGN(result, name, parameters) \
    table->name = (result(*) parameters)symbols[index++];

#endif
