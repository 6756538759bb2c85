#ifndef STRATA_CSQLITE_SHIM_H
#define STRATA_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
/// cannot import; this wrapper hands it over as a value.
static inline sqlite3_destructor_type strata_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// sqlite3_db_config is variadic; Swift cannot call it directly.
static inline int strata_sqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

#endif
