import CFileSystem

/// The SQLite VFS that gathers a store file's consecutive page writes into
/// writes of up to 124 KiB (`Sources/CFileSystem/coalescing_vfs.c`).
///
/// A store filled in one transaction (``Store/create(at:model:filling:)``)
/// writes every page once, in order, one `pwrite` of 4 KiB each; the
/// kernel's cost is mostly per write, and large writes let it use large
/// page-cache folios. SQLite still sees the file it wrote: the gathered
/// bytes are written before any read, sync, lock change or close. Every
/// 8 MiB written it also starts the kernel writing the file to the disk
/// (`sync_file_range`), so the sync that ends the transaction waits for the
/// last megabytes only: it had waited ~90 ms for a 110 MB store. Only for a
/// file no other connection has open.
package enum CoalescingWrites {
    /// The VFS's name, registered on first use; nil when SQLite refused it
    /// (then the default VFS is used).
    package static let vfsName: String? = strata_coalescing_vfs_register().map {
        String(cString: $0)
    }

    /// How many times the VFS has started writeback in this process.
    static var writebacksStarted: Int { strata_coalescing_writebacks_started() }
}
