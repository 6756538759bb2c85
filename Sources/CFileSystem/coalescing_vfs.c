// The "strata-coalescing" SQLite VFS: see CFileSystem.h.
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "CFileSystem.h"

// The unix VFS writes at most 0x1ffff bytes per call (it masks the length
// with that, expecting pages): gather 31 pages of 4 KiB, 124 KiB.
enum { kBufferSize = 0x1F000 };

// Every 8 MiB written, the kernel is told to start writing the file to the
// disk: a store filled in one transaction is synced once, at its end, and
// that sync waited ~90 ms for 110 MB when nothing had been written before.
enum { kWritebackStep = 8 << 20 };

static atomic_long writebacks_started;

typedef struct CoalescingFile {
    sqlite3_file base;
    sqlite3_file *real;  // The default VFS's file, allocated right after this struct.
    unsigned char *buffer;  // NULL: writes go straight through.
    sqlite3_int64 start;  // The file offset of buffer[0].
    int used;
    int watch;  // A descriptor of the file for starting writeback, or -1.
    sqlite3_int64 unstarted;  // Bytes written since writeback was last started.
} CoalescingFile;

static sqlite3_vfs coalescing_vfs;
static sqlite3_vfs *real_vfs;
static sqlite3_io_methods coalescing_methods;

// Counts bytes written to the main database file and starts writeback each
// kWritebackStep of them (from the start: pages written again are dirty again).
static void note_written(CoalescingFile *file, int amount) {
    if (file->watch < 0) return;
    file->unstarted += amount;
    if (file->unstarted < kWritebackStep) return;
    file->unstarted = 0;
    if (strata_start_writeback(file->watch, 0) == 0) {
        atomic_fetch_add(&writebacks_started, 1);
    }  // Else only a hint lost: the final sync does the work.
}

// Writes the gathered bytes. On failure they are kept, so that every later
// flush (the next sync among them) fails too: an error is never lost.
static int flush(CoalescingFile *file) {
    if (file->used == 0) return SQLITE_OK;
    int code = file->real->pMethods->xWrite(file->real, file->buffer, file->used, file->start);
    if (code == SQLITE_OK) {
        note_written(file, file->used);
        file->used = 0;
    }
    return code;
}

#define REAL(file) (((CoalescingFile *)(file))->real)
#define FLUSH_OR_RETURN(file)                                   \
    do {                                                        \
        int flushed = flush((CoalescingFile *)(file));          \
        if (flushed != SQLITE_OK) return flushed;               \
    } while (0)

static int coalescing_close(sqlite3_file *file) {
    CoalescingFile *self = (CoalescingFile *)file;
    int flushed = flush(self);
    self->used = 0;
    int closed = self->real->pMethods->xClose(self->real);
    free(self->buffer);
    self->buffer = NULL;
    if (self->watch >= 0) close(self->watch);
    self->watch = -1;
    return flushed != SQLITE_OK ? flushed : closed;
}

static int coalescing_read(sqlite3_file *file, void *out, int amount, sqlite3_int64 offset) {
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xRead(REAL(file), out, amount, offset);
}

static int coalescing_write(
    sqlite3_file *file, const void *bytes, int amount, sqlite3_int64 offset) {
    CoalescingFile *self = (CoalescingFile *)file;
    if (self->buffer == NULL || amount >= kBufferSize) {
        FLUSH_OR_RETURN(file);
        int code = self->real->pMethods->xWrite(self->real, bytes, amount, offset);
        if (code == SQLITE_OK) note_written(self, amount);
        return code;
    }
    if (self->used > 0 &&
        (offset != self->start + self->used || self->used + amount > kBufferSize)) {
        FLUSH_OR_RETURN(file);
    }
    if (self->used == 0) self->start = offset;
    memcpy(self->buffer + self->used, bytes, (size_t)amount);
    self->used += amount;
    return SQLITE_OK;
}

static int coalescing_truncate(sqlite3_file *file, sqlite3_int64 size) {
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}

static int coalescing_sync(sqlite3_file *file, int flags) {
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xSync(REAL(file), flags);
}

static int coalescing_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}

static int coalescing_lock(sqlite3_file *file, int level) {
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xLock(REAL(file), level);
}

static int coalescing_unlock(sqlite3_file *file, int level) {
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xUnlock(REAL(file), level);
}

static int coalescing_check_reserved_lock(sqlite3_file *file, int *reserved) {
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), reserved);
}

static int coalescing_file_control(sqlite3_file *file, int operation, void *argument) {
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xFileControl(REAL(file), operation, argument);
}

static int coalescing_sector_size(sqlite3_file *file) {
    return REAL(file)->pMethods->xSectorSize(REAL(file));
}

static int coalescing_device_characteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}

static int coalescing_shm_map(
    sqlite3_file *file, int region, int size, int extend, void volatile **memory) {
    if (REAL(file)->pMethods->iVersion < 2) return SQLITE_IOERR_SHMMAP;
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xShmMap(REAL(file), region, size, extend, memory);
}

static int coalescing_shm_lock(sqlite3_file *file, int offset, int count, int flags) {
    if (REAL(file)->pMethods->iVersion < 2) return SQLITE_IOERR_SHMLOCK;
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, count, flags);
}

static void coalescing_shm_barrier(sqlite3_file *file) {
    flush((CoalescingFile *)file);  // A failure is kept, and reported by the next sync.
    if (REAL(file)->pMethods->iVersion >= 2) REAL(file)->pMethods->xShmBarrier(REAL(file));
}

static int coalescing_shm_unmap(sqlite3_file *file, int delete_flag) {
    if (REAL(file)->pMethods->iVersion < 2) return SQLITE_OK;
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xShmUnmap(REAL(file), delete_flag);
}

static int coalescing_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **page) {
    *page = NULL;  // No mapping: SQLite reads the page instead.
    if (REAL(file)->pMethods->iVersion < 3) return SQLITE_OK;
    FLUSH_OR_RETURN(file);
    return REAL(file)->pMethods->xFetch(REAL(file), offset, amount, page);
}

static int coalescing_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
    if (REAL(file)->pMethods->iVersion < 3) return SQLITE_OK;
    return REAL(file)->pMethods->xUnfetch(REAL(file), offset, page);
}

static int coalescing_open(
    sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    CoalescingFile *self = (CoalescingFile *)file;
    memset(self, 0, sizeof(*self));
    self->watch = -1;
    self->real = (sqlite3_file *)&self[1];
    int code = real_vfs->xOpen(real_vfs, name, self->real, flags, out_flags);
    if (code != SQLITE_OK) {
        // SQLite calls xClose only when pMethods is set; the real file, if
        // it set its own methods, has already cleaned up on failure.
        self->base.pMethods = NULL;
        return code;
    }
    if (flags & SQLITE_OPEN_MAIN_DB) {
        self->buffer = malloc(kBufferSize);  // NULL: writes go straight through.
        // Its own descriptor: the default VFS keeps its one to itself.
        if (name != NULL) self->watch = open(name, O_RDONLY | O_CLOEXEC);
    }
    self->base.pMethods = &coalescing_methods;
    return SQLITE_OK;
}

static int coalescing_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void)vfs;
    return real_vfs->xDelete(real_vfs, name, sync_dir);
}

static int coalescing_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return real_vfs->xAccess(real_vfs, name, flags, result);
}

static int coalescing_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return real_vfs->xFullPathname(real_vfs, name, size, out);
}

static void *coalescing_dl_open(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return real_vfs->xDlOpen(real_vfs, name);
}

static void coalescing_dl_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    real_vfs->xDlError(real_vfs, size, out);
}

static void (*coalescing_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return real_vfs->xDlSym(real_vfs, handle, symbol);
}

static void coalescing_dl_close(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    real_vfs->xDlClose(real_vfs, handle);
}

static int coalescing_randomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return real_vfs->xRandomness(real_vfs, size, out);
}

static int coalescing_sleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return real_vfs->xSleep(real_vfs, microseconds);
}

static int coalescing_current_time(sqlite3_vfs *vfs, double *now) {
    (void)vfs;
    return real_vfs->xCurrentTime(real_vfs, now);
}

static int coalescing_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return real_vfs->xGetLastError ? real_vfs->xGetLastError(real_vfs, size, out) : 0;
}

static int coalescing_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    (void)vfs;
    return real_vfs->xCurrentTimeInt64(real_vfs, now);
}

static pthread_once_t registration = PTHREAD_ONCE_INIT;
static int registered = 0;

static void register_once(void) {
    if (sqlite3_initialize() != SQLITE_OK) return;
    real_vfs = sqlite3_vfs_find(NULL);
    if (real_vfs == NULL || real_vfs->iVersion < 2) return;
    coalescing_methods = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = coalescing_close,
        .xRead = coalescing_read,
        .xWrite = coalescing_write,
        .xTruncate = coalescing_truncate,
        .xSync = coalescing_sync,
        .xFileSize = coalescing_file_size,
        .xLock = coalescing_lock,
        .xUnlock = coalescing_unlock,
        .xCheckReservedLock = coalescing_check_reserved_lock,
        .xFileControl = coalescing_file_control,
        .xSectorSize = coalescing_sector_size,
        .xDeviceCharacteristics = coalescing_device_characteristics,
        .xShmMap = coalescing_shm_map,
        .xShmLock = coalescing_shm_lock,
        .xShmBarrier = coalescing_shm_barrier,
        .xShmUnmap = coalescing_shm_unmap,
        .xFetch = coalescing_fetch,
        .xUnfetch = coalescing_unfetch,
    };
    coalescing_vfs = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(CoalescingFile) + real_vfs->szOsFile,
        .mxPathname = real_vfs->mxPathname,
        .zName = "strata-coalescing",
        .xOpen = coalescing_open,
        .xDelete = coalescing_delete,
        .xAccess = coalescing_access,
        .xFullPathname = coalescing_full_pathname,
        .xDlOpen = coalescing_dl_open,
        .xDlError = coalescing_dl_error,
        .xDlSym = coalescing_dl_sym,
        .xDlClose = coalescing_dl_close,
        .xRandomness = coalescing_randomness,
        .xSleep = coalescing_sleep,
        .xCurrentTime = coalescing_current_time,
        .xGetLastError = coalescing_get_last_error,
        .xCurrentTimeInt64 = coalescing_current_time_int64,
    };
    registered = sqlite3_vfs_register(&coalescing_vfs, 0) == SQLITE_OK;
}

long strata_coalescing_writebacks_started(void) {
    return atomic_load(&writebacks_started);
}

const char *strata_coalescing_vfs_register(void) {
    pthread_once(&registration, register_once);
    return registered ? coalescing_vfs.zName : NULL;
}
