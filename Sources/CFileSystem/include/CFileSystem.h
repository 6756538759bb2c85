#ifndef STRATA_CFILESYSTEM_H
#define STRATA_CFILESYSTEM_H

/// Starts the kernel writing the dirty pages of the file open at `fd`, from
/// `offset` to its end, to the disk, without waiting for them: Linux's
/// sync_file_range(SYNC_FILE_RANGE_WRITE), which Swift's Glibc module does
/// not export. Returns 0, or -1 with errno set; elsewhere does nothing and
/// returns 0.
int strata_start_writeback(int fd, long long offset);

/// Makes the file open at `destination` share the blocks of the file open at
/// `source` (Linux's FICLONE ioctl: btrfs, XFS, bcachefs), so neither is
/// copied until one is written. Returns 0, or -1 with errno set (EOPNOTSUPP,
/// EXDEV, EINVAL, ENOTTY… where the file system cannot); elsewhere -1 with
/// EOPNOTSUPP.
int strata_clone_file(int destination, int source);

/// Copies up to `length` bytes from the file open at `source` to the one open
/// at `destination`, from and advancing both files' offsets, inside the kernel:
/// Linux's copy_file_range(2), declared by glibc 2.27 only under _GNU_SOURCE.
/// Returns the bytes copied (0 at the end of `source`), or -1 with errno set;
/// elsewhere -1 with ENOSYS.
long long strata_copy_file_range(int source, int destination, long long length);

/// Registers (once; later calls do nothing) the SQLite VFS "strata-coalescing"
/// and returns its name, or NULL when it cannot be registered.
///
/// It is the default VFS but for the main database file, whose consecutive
/// page writes it gathers into writes of up to 124 KiB: a store filled in one
/// transaction writes its pages one by one, in order, and the kernel's cost
/// is per write. Every gathered byte is written before the file is read,
/// synced, truncated, locked or unlocked, its size asked, its shared memory
/// used, or it is closed, so SQLite sees the file it wrote. Every 8 MiB
/// written it starts the kernel writing the file to the disk
/// (strata_start_writeback), so the sync that ends a large transaction waits
/// for the last megabytes only. Meant for a file no other connection has
/// open (a store being built in a hidden file).
const char *strata_coalescing_vfs_register(void);

/// How many times, in this process, the VFS has started writeback (tests).
long strata_coalescing_writebacks_started(void);

#endif
