#define _GNU_SOURCE
#include <fcntl.h>

#include "CFileSystem.h"

int strata_start_writeback(int fd, long long offset) {
#ifdef __linux__
    return sync_file_range(fd, offset, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    (void)offset;
    return 0;
#endif
}
