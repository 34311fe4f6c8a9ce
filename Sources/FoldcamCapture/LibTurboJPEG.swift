import CTurboJPEG
import FoldcamPlatform

/// The TurboJPEG calls an MJPG decode makes, looked up in libturbojpeg.so.0 at run time instead
/// of linked: the daemon starts without libjpeg-turbo, and only a virtual camera that must
/// decode MJPG needs it (Debian's libturbojpeg0; libturbojpeg0-dev to build, for the header).
struct LibTurboJPEG: Sendable {
    /// The soname <turbojpeg.h> is built against; Debian ships it in the libturbojpeg0 package.
    static let soname = "libturbojpeg.so.0"

    /// Loaded on first use, once for the process.
    static func load() throws(DynamicLibraryError) -> LibTurboJPEG { try shared.get() }

    private static let shared = Result { () throws(DynamicLibraryError) -> LibTurboJPEG in try LibTurboJPEG(DynamicLibrary(soname)) }

    let initDecompress: ctj_init_decompress_fn
    let decompressHeader3: ctj_decompress_header3_fn
    let decompressToYUVPlanes: ctj_decompress_to_yuv_planes_fn
    let planeWidth: ctj_plane_width_fn
    let planeHeight: ctj_plane_height_fn
    let errorString: ctj_get_error_str2_fn
    let errorCode: ctj_get_error_code_fn
    let destroy: ctj_destroy_fn

    private init(_ library: DynamicLibrary) throws(DynamicLibraryError) {
        initDecompress = try library.function("tjInitDecompress")
        decompressHeader3 = try library.function("tjDecompressHeader3")
        decompressToYUVPlanes = try library.function("tjDecompressToYUVPlanes")
        planeWidth = try library.function("tjPlaneWidth")
        planeHeight = try library.function("tjPlaneHeight")
        errorString = try library.function("tjGetErrorStr2")
        errorCode = try library.function("tjGetErrorCode")
        destroy = try library.function("tjDestroy")
    }
}
