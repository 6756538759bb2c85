// The one dlopen and dlsym loop of the C targets that load their library on
// first use (see include/CLibraryLoader.h).

#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>

int strata_load_library(const char *soname, const char *what, const char *const *names,
                        void **symbols, size_t count, char *failure, size_t failure_size) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(failure, failure_size, "cannot load %s: %s", what,
                 reason ? reason : "unknown error");
        return 0;
    }
    for (size_t index = 0; index < count; index++) {
        symbols[index] = dlsym(handle, names[index]);
        if (symbols[index] == NULL) {
            snprintf(failure, failure_size, "%s has no %s", soname, names[index]);
            return 0;
        }
    }
    return 1;
}
