import CPNG
import FoldcamPlatform

/// The libpng calls a snapshot makes, looked up in libpng16.so.16 at run time instead of
/// linked: a daemon nobody asks for a PNG never maps libpng and zlib (libpng-dev is still
/// needed to build, for the header). Each field's type is its C declaration's (CPNG's shim.h).
struct LibPNG: Sendable {
    /// The soname <png.h> is built against; Debian ships it in the libpng16-16 package.
    static let soname = "libpng16.so.16"

    /// Loaded on first use, once for the process.
    static func load() throws(DynamicLibraryError) -> LibPNG { try shared.get() }

    private static let shared = Result { () throws(DynamicLibraryError) -> LibPNG in try LibPNG(DynamicLibrary(soname)) }

    let imageWriteToMemory: cpng_image_write_to_memory_fn
    let imageFree: cpng_image_free_fn

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        imageWriteToMemory = try library.function("png_image_write_to_memory")
        imageFree = try library.function("png_image_free")
    }
}
