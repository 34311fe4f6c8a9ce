import FoldcamPlatform

/// The libv4l2 calls a probe makes, looked up in libv4l2.so.0 at run time instead of linked.
/// Linking it mapped libv4l2, libv4lconvert and libjpeg into every foldcamd, simulate mode
/// included, which never probes a node. CV4L2's wrappers call these addresses through the
/// functions' declared types (libv4l-dev is still needed to build, for the header).
struct LibV4L2: Sendable {
    /// The soname <libv4l2.h> is built against; Debian ships it in the libv4l-0 package.
    static let soname = "libv4l2.so.0"

    /// Loaded on first use, once for the process.
    static func load() throws(DynamicLibraryError) -> LibV4L2 { try shared.get() }

    private static let shared = Result { () throws(DynamicLibraryError) -> LibV4L2 in try LibV4L2(DynamicLibrary(soname)) }

    // Sendable: addresses in a library that is never unloaded.
    nonisolated(unsafe) let open: UnsafeRawPointer
    nonisolated(unsafe) let ioctl: UnsafeRawPointer
    nonisolated(unsafe) let close: UnsafeRawPointer

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        open = UnsafeRawPointer(try library.address(of: "v4l2_open"))
        ioctl = UnsafeRawPointer(try library.address(of: "v4l2_ioctl"))
        close = UnsafeRawPointer(try library.address(of: "v4l2_close"))
    }
}
