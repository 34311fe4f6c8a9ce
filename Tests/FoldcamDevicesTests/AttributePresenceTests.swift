import FoldcamCore
@testable import FoldcamDevices
import Foundation
import Testing

/// A platform device's attribute as a presence input (the X1 Fold's
/// thinkpad_acpi/keyboard_attached_on_screen), against files in a directory of the test's.
@Suite struct AttributePresenceTests {
    static func rig() throws -> Rig {
        var text = try #require(RigPresets.json("dual-screen"))
        let input = #"{"id": "keyboard", "attribute": {"device": "thinkpad_acpi", "name": "keyboard_attached_on_screen"}, "covers": ["bottom"]}"#
        text = text.replacingOccurrences(of: #""postures""#, with: #""presence": [\#(input)], "postures""#)
        return try RigDecoder.decode(json: text)
    }

    final class Platform {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("foldcam-platform-\(UUID().uuidString)").path
        var file: String { root + "/thinkpad_acpi/keyboard_attached_on_screen" }

        init() throws { try FileManager.default.createDirectory(atPath: root + "/thinkpad_acpi", withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Rewrites in place, as sysfs changes a value under an open descriptor.
        func write(_ text: String) throws {
            if !FileManager.default.fileExists(atPath: file) { _ = FileManager.default.createFile(atPath: file, contents: nil) }
            let handle = try #require(FileHandle(forWritingAtPath: file))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        }
    }

    @Test func noAttributeNoPollNoEvent() throws {
        let platform = try Platform()
        let presence = AttributePresence(rig: try Self.rig(), platform: platform.root)
        #expect(!presence.isEmpty && presence.devices == ["thinkpad_acpi"])
        let read = presence.read()
        #expect(read.events.isEmpty && read.notes.isEmpty, "a kernel without it says nothing")
        #expect(!presence.anyReadable, "and arms no poll")
    }

    @Test func followsTheValueWhileTheAttributeIsThere() throws {
        let platform = try Platform()
        try platform.write("0\n")
        let presence = AttributePresence(rig: try Self.rig(), platform: platform.root)
        let first = presence.read()
        #expect(first.events.isEmpty, "0 is absent, as before")
        #expect(first.notes == ["presence input keyboard: following /sys/devices/platform/thinkpad_acpi/keyboard_attached_on_screen, read every 1 s"])
        #expect(presence.anyReadable)
        #expect(presence.poll().events.isEmpty, "no change, no event")
        try platform.write("1\n")
        #expect(presence.poll().events == [.presence(input: 0, present: true)])
        #expect(presence.poll().events.isEmpty)
        try platform.write("0\n")
        #expect(presence.poll().events == [.presence(input: 0, present: false)])
    }

    @Test func garbageIsAbsentAndSaidOnce() throws {
        let platform = try Platform()
        try platform.write("1\n")
        let presence = AttributePresence(rig: try Self.rig(), platform: platform.root)
        #expect(presence.read().events == [.presence(input: 0, present: true)])
        try platform.write("on\n")
        let garbage = presence.poll()
        #expect(garbage.events == [.presence(input: 0, present: false)])
        #expect(garbage.notes.contains { $0.contains(#"reads "on", not an integer; taken as absent"#) }, "\(garbage.notes)")
        #expect(presence.poll().notes.isEmpty, "said once")
    }

    @Test func aSymbolicLinkIsNotFollowed() throws {
        let platform = try Platform()
        let target = platform.root + "/elsewhere"
        try "1\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: platform.file, withDestinationPath: target)
        let presence = AttributePresence(rig: try Self.rig(), platform: platform.root)
        let read = presence.read()
        #expect(read.events.isEmpty, "O_NOFOLLOW: a link in the attribute's place reads as nothing")
        #expect(!presence.anyReadable)
    }
}
