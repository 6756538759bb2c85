#ifndef STRATA_CFILESYSTEM_H
#define STRATA_CFILESYSTEM_H

/// Starts the kernel writing the dirty pages of the file open at `fd`, from
/// `offset` to its end, to the disk, without waiting for them: Linux's
/// sync_file_range(SYNC_FILE_RANGE_WRITE), which Swift's Glibc module does
/// not export. Returns 0, or -1 with errno set; elsewhere does nothing and
/// returns 0.
int strata_start_writeback(int fd, long long offset);

#endif
