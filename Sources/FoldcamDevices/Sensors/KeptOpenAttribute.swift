import FoldcamPlatform

/// A sysfs attribute that a polled sensor reads on every tick: opened once and read with pread
/// at offset 0 (sysfs produces the current value for each read at 0), so a tick costs one
/// system call instead of open, read and close. A read that fails closes the descriptor (the
/// device may be gone) and reports the failure as a fresh read would; the next read opens the
/// attribute again, so a device that is gone fails with the open's error. Device thread only.
final class KeptOpenAttribute {
    let syspath: String
    let name: String
    private var file: FileDescriptor?
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// Opened with O_NOFOLLOW|O_NONBLOCK: for an attribute named in a rig rather than found by udev.
    private let guarded: Bool

    init(syspath: String, name: String, guarded: Bool = false) {
        self.syspath = syspath
        self.name = name
        self.guarded = guarded
    }

    /// Whether the descriptor is open now (it is after a successful read, until one fails).
    var isOpen: Bool { file != nil }

    /// The attribute's text now.
    func read() throws(DeviceError) -> String {
        let open: FileDescriptor
        if let file {
            open = file
        } else {
            do { open = try FileDescriptor.open(syspath + "/" + name, .readOnly, nonBlocking: guarded, noFollow: guarded) } catch {
                throw .failed(SystemCallError("read \(name)", error.errno, subject: syspath))
            }
            file = open
        }
        do {
            let count = try buffer.withMutableBytes { raw throws(SystemCallError) in try open.read(into: raw, atOffset: 0) }
            return String(decoding: buffer[..<count], as: UTF8.self)
        } catch {
            open.close()
            file = nil
            throw .failed(SystemCallError("read \(name)", error.errno, subject: syspath))
        }
    }

    /// The attribute's value as a number (a value that is not one is `garbage`).
    func number() throws(DeviceError) -> Double {
        let text = try read()
        guard let value = IIOValue.parse(text) else {
            throw .garbage(device: syspath, call: "read \(name)", what: "\"\(text.trimmingWhitespace)\" is not a number")
        }
        return value
    }
}
