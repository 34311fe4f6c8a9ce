import Glibc

/// Where the build put the executables under test: `$FOLDCAM_TEST_BIN_DIR`, next to the test
/// bundle (the running executable on Linux, or a few levels up from it), next to argv[0], or
/// the package's own .build/debug.
public enum Executables {
    public static func path(of name: String, filePath: String = #filePath) throws -> String {
        var candidates: [String] = []
        if let overridden = getenv("FOLDCAM_TEST_BIN_DIR").map({ String(cString: $0) }), !overridden.isEmpty {
            candidates.append(overridden + "/" + name)
        }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 {
            var directory = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for _ in 0..<4 {  // the bundle may be a directory (…/debug/x.xctest/…)
                guard let slash = directory.lastIndex(of: "/"), slash != directory.startIndex else { break }
                directory = String(directory[..<slash])
                candidates.append(directory + "/" + name)
            }
        }
        if let argument = CommandLine.arguments.first, let slash = argument.lastIndex(of: "/") {
            candidates.append(String(argument[..<slash]) + "/" + name)
        }
        // <package>/Tests/FoldcamTestSupport/Executables.swift -> <package>/.build/debug
        var package = filePath
        for _ in 0..<3 { package = String(package[..<(package.lastIndex(of: "/") ?? package.startIndex)]) }
        candidates.append(package + "/.build/debug/" + name)
        for candidate in candidates where access(candidate, X_OK) == 0 { return candidate }
        throw HarnessError("\(name) not found (looked at \(candidates.joined(separator: ", "))); build it first: swift build --build-tests")
    }
}
