import FoldcamPlatform

/// A hinge sensor read through its IIO buffer (/dev/iio:deviceN) instead of polled: only the
/// angle channel is enabled, so each sample is one `in_angl0` value. Opened on the device
/// thread; any failure while setting up means "poll instead", never an error for the daemon.
/// - SeeAlso: https://docs.kernel.org/iio/iio_devbuf.html
final class IIOHingeBuffer {
    let syspath: String
    let descriptor: FileDescriptor
    private let type: IIOScanType
    private var pending: [UInt8] = []

    /// Whether the device offers a buffer for the angle channel at all.
    static func available(syspath: String, devnode: String?) -> Bool {
        devnode != nil && (try? SysfsAttributes.read(syspath, "scan_elements/in_angl0_en")) != nil
    }

    init(syspath: String, devnode: String) throws(DeviceError) {
        self.syspath = syspath
        let typeText = try SysfsAttributes.read(syspath, "scan_elements/in_angl0_type")
        guard let type = IIOScanType(parsing: typeText) else {
            throw .garbage(device: syspath, call: "read scan_elements/in_angl0_type", what: "\"\(typeText.trimmingWhitespace)\" is not a channel type")
        }
        self.type = type
        // Disable before reconfiguring; enable only the angle channel.
        try SysfsAttributes.write(syspath, "buffer/enable", "0")
        for channel in Self.enableAttributes(syspath) where channel != "in_angl0_en" {
            try SysfsAttributes.write(syspath, "scan_elements/" + channel, "0")
        }
        try SysfsAttributes.write(syspath, "scan_elements/in_angl0_en", "1")
        try SysfsAttributes.write(syspath, "buffer/length", "16")
        do { descriptor = try FileDescriptor.open(devnode, .readOnly, nonBlocking: true) } catch { throw .failed(error) }
        try SysfsAttributes.write(syspath, "buffer/enable", "1")
    }

    deinit {
        // Leave the device as found; it may already be gone, then nothing is left to undo.
        try? SysfsAttributes.write(syspath, "buffer/enable", "0")
    }

    /// The raw values read so far (the descriptor is non-blocking; empty when none are ready).
    func read() throws(DeviceError) -> [Int64] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count: Int
            do {
                count = try buffer.withMutableBytes { raw throws(SystemCallError) in try descriptor.read(into: raw) }
            } catch {
                if error.errno == .wouldBlock { break }
                throw .failed(SystemCallError("read buffer", error.errno, subject: syspath))
            }
            if count == 0 { break }
            pending += buffer[..<count]
        }
        var values: [Int64] = []
        let size = type.storageBytes
        while pending.count >= size {
            values.append(type.decode(pending[..<size]))
            pending.removeFirst(size)
        }
        return values
    }

    /// The `*_en` files in scan_elements (enabled channels shape every sample).
    static func enableAttributes(_ syspath: String) -> [String] {
        SysfsAttributes.names(syspath, "scan_elements").filter { $0.hasSuffix("_en") }
    }
}
