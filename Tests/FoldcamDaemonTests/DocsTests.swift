import FoldcamCore
import FoldcamTestSupport
import Glibc
import Testing

/// The method tables in docs/security.md and docs/protocol.md against the daemon itself: every
/// method `hello` lists is documented, in the access class the daemon enforces.
@Suite("docs match the daemon's methods")
struct DocsTests {
    static let repository: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path
    }()

    /// docs/security.md's table: class → methods (`simulate.*` expanded against `available`).
    static func accessClasses(available: [String]) -> [String: Set<String>] {
        var classes: [String: Set<String>] = [:]
        for line in readTextFile(repository + "/docs/security.md").split(separator: "\n") {
            for name in ["read", "frames", "control"] where line.hasPrefix("| \(name) |") {
                let methodsColumn = line.split(separator: "|")[1]
                let tokens = methodsColumn.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
                var methods: Set<String> = []
                for token in tokens {
                    if token.hasSuffix(".*") {
                        methods.formUnion(available.filter { $0.hasPrefix(token.dropLast()) })
                    } else {
                        methods.insert(token)
                    }
                }
                classes[name] = methods
            }
        }
        return classes
    }

    @Test("docs/security.md lists every method once, in the class the daemon enforces for a stranger; docs/protocol.md has a row for each")
    func methodTables() throws {
        let daemon = try RunningDaemon()
        guard case let .array(listed)? = try daemon.connect().result("hello")["methods"] else { throw HarnessError("hello lists no methods") }
        let available = listed.compactMap(\.stringValue)
        let classes = Self.accessClasses(available: available)
        let documented = classes.values.reduce(into: [String]()) { $0 += $1 }
        #expect(documented.sorted() == available.sorted(), "docs/security.md: \(classes), hello: \(available)")

        let protocolDoc = readTextFile(Self.repository + "/docs/protocol.md")
        for method in available {
            #expect(protocolDoc.contains("| `\(method)`") || protocolDoc.contains("`\(method)`, `") || protocolDoc.contains(", `\(method)` |"), "docs/protocol.md has no row for \(method)")
        }

        try #require(OtherUser.available, "needs root to call as another user (setpriv)")
        let script = try OtherUser.script(OtherUser.requestsScript, named: "client.pl", in: daemon.directory)
        let requests = available.enumerated().map { #"{"id": \#($0.offset), "method": "\#($0.element)"}"# }
        let stranger = try OtherUser.start("/usr/bin/perl", [script, daemon.socketPath] + requests, in: daemon.directory, name: "stranger")
        #expect(stranger.exitCode(timeout: .seconds(60)) == 0, "\(stranger.stderr)")
        let replies = OtherUser.replies(stranger)
        try #require(replies.count == available.count, "\(stranger.stdout)")
        for (method, reply) in zip(available, replies) {
            let forbidden = reply[path: "error", "code"] == .string("forbidden")
            let documentedOpen = classes["read"]?.contains(method) == true
            #expect(forbidden != documentedOpen, "\(method): documented as \(documentedOpen ? "read" : "restricted"), but a stranger got \(reply.compactText)")
        }
    }
}

/// docs/protocol.md's error table has one row per code the daemon can send, and no other.
@Suite("docs/protocol.md lists every error code")
struct ErrorTableDocsTests {
    @Test func errorTableMatchesTheErrorCodeEnum() {
        let lines = readTextFile(DocsTests.repository + "/docs/protocol.md").split(separator: "\n")
        let section = lines.drop { $0 != "## Errors" }.dropFirst().prefix { !$0.hasPrefix("## ") }
        let documented = section.filter { $0.hasPrefix("| `") }.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(documented.count == Set(documented).count, "a code is listed twice: \(documented)")
        let codes = WireProtocol.ErrorCode.allCases.map(\.rawValue)
        #expect(Set(documented) == Set(codes), "documented \(documented.sorted()), the daemon's codes \(codes.sorted())")
    }
}

/// docs/install.md never reloads udev rules that name group foldcam before the group exists:
/// a block that installs foldcam's files by hand runs `systemd-sysusers` before
/// `udevadm control --reload`; any other block that reloads comes after the package is installed
/// (its postinst runs systemd-sysusers first).
@Suite("docs/install.md creates the foldcam group before udev reads rules naming it")
struct InstallOrderDocsTests {
    @Test func sysusersBeforeUdevReload() {
        let page = readTextFile(DocsTests.repository + "/docs/install.md")
        let parts = page.split(separator: "```", omittingEmptySubsequences: false)
        var packageInstalled = false
        var reloads = 0
        for (index, block) in parts.enumerated() where index % 2 == 1 && block.hasPrefix("sh\n") {
            let lines = block.split(separator: "\n")
            if let reload = lines.firstIndex(where: { $0.contains("udevadm control --reload") }) {
                reloads += 1
                let sysusers = lines.firstIndex { $0.contains("systemd-sysusers") }
                // A block that installs foldcam's own rules is the route without the package.
                let withoutPackage = lines.contains { $0.contains("70-foldcam.rules") || $0.contains("sysusers") }
                let ordered = sysusers.map { $0 < reload } ?? false
                #expect(withoutPackage ? ordered : packageInstalled || ordered, "install.md reloads udev rules before systemd-sysusers:\n\(block)")
            }
            if lines.contains(where: { $0.contains("apt-get install ./out/foldcam") }) { packageInstalled = true }
        }
        #expect(reloads >= 2, "install.md's udev steps were not found")
    }
}
