#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "CFileSystem.h"

// Linux's FICLONE, _IOW(0x94, 9, int), spelled out: <linux/fs.h> clashes
// with glibc's <sys/mount.h> on older systems.
#define STRATA_FICLONE 0x40049409

int strata_start_writeback(int fd, long long offset) {
#ifdef __linux__
    return sync_file_range(fd, offset, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    (void)offset;
    return 0;
#endif
}

int strata_clone_file(int destination, int source) {
#ifdef __linux__
    return ioctl(destination, STRATA_FICLONE, source);
#else
    (void)destination;
    (void)source;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

long long strata_copy_file_range(int source, int destination, long long length) {
#ifdef __linux__
    return (long long)copy_file_range(source, NULL, destination, NULL, (size_t)length, 0);
#else
    (void)source;
    (void)destination;
    (void)length;
    errno = ENOSYS;
    return -1;
#endif
}
