import FoldcamPlatform
import Testing

/// FoldcamPlatform's dlopen wrapper (tested here, next to its one user, libinput loading): the
/// errors name the library and the symbol.
@Suite struct DynamicLibraryTests {
    @Test func aMissingLibraryIsNamed() {
        do {
            _ = try DynamicLibrary("libfoldcam-no-such-library.so.0")
            Issue.record("expected an error")
        } catch {
            #expect(error.library == "libfoldcam-no-such-library.so.0" && error.symbol == nil)
            #expect(error.description.hasPrefix("dlopen libfoldcam-no-such-library.so.0 failed: "), "\(error)")
            #expect(error.description.contains("cannot open shared object file"), "\(error)")
        }
    }

    @Test func aMissingSymbolIsNamedWithItsLibrary() throws {
        let libc = try DynamicLibrary("libc.so.6")
        do {
            _ = try libc.address(of: "foldcam_no_such_function")
            Issue.record("expected an error")
        } catch {
            #expect(error.library == "libc.so.6" && error.symbol == "foldcam_no_such_function")
            #expect(error.description.hasPrefix("dlsym foldcam_no_such_function in libc.so.6 failed: "), "\(error)")
            #expect(error.description.contains("undefined symbol"), "\(error)")
        }
    }

    @Test func aFunctionIsCallableThroughItsCType() throws {
        let strlen: @convention(c) (UnsafePointer<CChar>?) -> Int = try DynamicLibrary("libc.so.6").function("strlen")
        #expect(strlen("foldcam") == 7)
    }
}
