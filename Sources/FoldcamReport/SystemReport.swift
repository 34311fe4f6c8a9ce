import FoldcamCore
import FoldcamIO
import FoldcamPlatform
import FoldcamV4L2

/// `foldcamctl report`: one text file with what a device model needs (docs/devices.md,
/// "Contributing a model"): DMI, the udev properties of the camera, sensor, input and display
/// devices, V4L2 capabilities and controls, IIO channels with a few readings, the switches
/// input devices have, and PipeWire's camera nodes. Serial numbers, UUIDs and addresses are
/// redacted (`ReportRedaction`). Read-only: it opens no device for writing and sets nothing.
public enum SystemReport {
    static let dmiFields = ["sys_vendor", "product_name", "product_version", "product_family", "product_sku", "board_vendor", "board_name",
                            "board_version", "bios_vendor", "bios_version", "bios_date", "chassis_vendor", "chassis_type"]
    /// Read this many times from each IIO `_raw` channel.
    static let readings = 3
    /// PipeWire's dump tool, looked for on PATH.
    static let pwDump = "pw-dump"

    public static func text() -> String {
        var out: [String] = ["# foldcam report (foldcamctl \(BuildInfo.version)): serial numbers, UUIDs and addresses are redacted", ""]
        out += section("DMI (/sys/class/dmi/id)", dmi())
        out += section("video4linux and v4l-subdev devices", videoDevices())
        out += section("IIO devices", iioDevices())
        out += section("input devices", inputDevices())
        out += section("DRM connectors", drmConnectors())
        out += section("PipeWire camera nodes", pipeWireCameras())
        return out.joined(separator: "\n") + "\n"
    }

    static func section(_ title: String, _ lines: [String]) -> [String] {
        ["## \(title)"] + (lines.isEmpty ? ["(none)"] : lines) + [""]
    }

    static func read(_ path: String) -> String? {
        guard let bytes = try? FileContents.read(path, limit: 64 * 1024), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return String(String(text.reversed().drop { $0.isWhitespace }).reversed())
    }

    static func dmi() -> [String] {
        let directory = ModelDatabase.dmiDirectory
        var lines = dmiFields.compactMap { field in read(directory + "/" + field).map { "\(field)=\(ReportRedaction.addressesMasked($0))" } }
        if !lines.isEmpty { lines.append("(product_serial, board_serial, chassis_serial and product_uuid are not read)") }
        return lines
    }

    /// The kernel's uevent properties, then udev's database entry for the device, redacted.
    static func properties(_ syspath: String, udevKey: String?) -> [String] {
        var lines: [String] = []
        for line in (read(syspath + "/uevent") ?? "").split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            lines.append("  " + ReportRedaction.property(String(line[..<equals]), String(line[line.index(after: equals)...])))
        }
        if let key = udevKey, let database = read("/run/udev/data/" + key) {
            for line in database.split(separator: "\n") where line.hasPrefix("E:") {
                let entry = line.dropFirst(2)
                guard let equals = entry.firstIndex(of: "=") else { continue }
                lines.append("  " + ReportRedaction.property(String(entry[..<equals]), String(entry[entry.index(after: equals)...])))
            }
        }
        return lines
    }

    /// udev's database file name for a device with a node: "c81:0".
    static func udevKey(_ syspath: String) -> String? {
        guard let dev = read(syspath + "/dev") else { return nil }
        return "c" + dev
    }

    static func videoDevices() -> [String] {
        var lines: [String] = []
        let directory = "/sys/class/video4linux"
        for name in Directory.names(in: directory).sorted(by: nodeOrder) {
            let syspath = directory + "/" + name
            lines.append("\(name): \(read(syspath + "/name") ?? "?")")
            lines += properties(syspath, udevKey: udevKey(syspath))
            let node = "/dev/" + name
            do {
                let device = try V4L2Device(node: node, access: .kernel, nonBlocking: true)
                defer { device.close() }
                if name.hasPrefix("video") {
                    let identity = try device.identity()
                    lines.append("  V4L2 driver=\(identity.driver) card=\(identity.card) device_caps=0x\(String(identity.capabilities, radix: 16))")
                }
                for control in device.listControls() {
                    lines.append("  control \(control.name) id=0x\(String(control.id, radix: 16)) type=\(control.type) min=\(control.minimum) max=\(control.maximum) step=\(control.step) default=\(control.defaultValue) flags=0x\(String(control.flags, radix: 16)) value=\(control.value.map(String.init) ?? "unreadable")")
                }
            } catch {
                lines.append("  \(node): \(error)")
            }
        }
        return lines
    }

    static func iioDevices() -> [String] {
        var lines: [String] = []
        let directory = "/sys/bus/iio/devices"
        for name in Directory.names(in: directory).filter({ $0.hasPrefix("iio:device") }).sorted(by: nodeOrder) {
            let syspath = directory + "/" + name
            lines.append("\(name): \(read(syspath + "/name") ?? "?")")
            lines += properties(syspath, udevKey: udevKey(syspath))
            let attributes = Directory.names(in: syspath).filter { $0.hasPrefix("in_") || ["location", "label", "sampling_frequency", "mount_matrix", "current_timestamp_clock"].contains($0) }.sorted()
            for attribute in attributes {
                if attribute.hasSuffix("_raw") {
                    let values = (0..<readings).map { _ in read(syspath + "/" + attribute) ?? "unreadable" }
                    lines.append("  \(attribute): \(values.joined(separator: ", "))")
                } else if let value = read(syspath + "/" + attribute) {
                    lines.append("  \(attribute)=\(value)")
                }
            }
        }
        return lines
    }

    /// Switch bits of an input device's `capabilities/sw` (a hex bitmap, lowest word last).
    static let switchNames = [0: "SW_LID", 1: "SW_TABLET_MODE", 2: "SW_HEADPHONE_INSERT", 5: "SW_DOCK", 6: "SW_LINEOUT_INSERT"]

    static func inputDevices() -> [String] {
        var lines: [String] = []
        let directory = "/sys/class/input"
        for name in Directory.names(in: directory).filter({ $0.hasPrefix("event") }).sorted(by: nodeOrder) {
            let syspath = directory + "/" + name
            let deviceName = read(syspath + "/device/name") ?? "?"
            let words = (read(syspath + "/device/capabilities/sw") ?? "0").split(separator: " ")
            let low = words.last.flatMap { UInt64($0, radix: 16) } ?? 0
            let switches = switchNames.keys.sorted().filter { low & (1 << UInt64($0)) != 0 }.map { switchNames[$0]! }
            lines.append("\(name): \(ReportRedaction.addressesMasked(deviceName))\(switches.isEmpty ? "" : " switches: " + switches.joined(separator: ", "))")
            lines += properties(syspath, udevKey: udevKey(syspath))
        }
        return lines
    }

    static func drmConnectors() -> [String] {
        var lines: [String] = []
        let directory = "/sys/class/drm"
        for name in Directory.names(in: directory).filter({ $0.hasPrefix("card") && $0.contains("-") }).sorted() {
            let syspath = directory + "/" + name
            let mode = read(syspath + "/modes")?.split(separator: "\n").first.map(String.init) ?? "no modes"
            lines.append("\(name): status=\(read(syspath + "/status") ?? "?") enabled=\(read(syspath + "/enabled") ?? "?") first mode \(mode)")
            lines += properties(syspath, udevKey: nil)
        }
        return lines
    }

    /// PipeWire's Video/Source nodes from `pw-dump`, with the properties a model uses.
    static func pipeWireCameras() -> [String] {
        let path = (ProcessEnvironment.current["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(pwDump)" }.first { PathKind.of($0) == .regularFile }
        guard let path else { return ["pw-dump is not on PATH (Debian: pipewire-bin): PipeWire's camera nodes are not listed"] }
        let outcome: ChildProcess.Outcome
        do { outcome = try ChildProcess.output(of: path, [], limit: 16 * 1024 * 1024) } catch { return ["\(path): \(error)"] }
        guard outcome.status == 0, let value = try? JSONParser.parse(String(decoding: outcome.output, as: UTF8.self)), case let .array(objects) = value else {
            return ["\(path) exited with status \(outcome.status) or printed no JSON list (is PipeWire running for this user?)"]
        }
        let keys = ["media.class", "device.api", "node.name", "node.description", "object.path", "api.libcamera.path", "api.libcamera.location", "api.libcamera.rotation", "device.product.name", "api.v4l2.path"]
        var lines: [String] = []
        for object in objects {
            guard let props = object["info"]?["props"], props["media.class"] == .string("Video/Source") else { continue }
            let id = object["id"].flatMap(\.numberValue).map { String(Int($0)) } ?? "?"
            lines.append("node \(id): " + keys.compactMap { key in props[key].map { "\(key)=\(text($0))" } }.joined(separator: " "))
        }
        return lines.isEmpty ? ["pw-dump lists no Video/Source node"] : lines
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case let .string(text): return ClientText.quoted(ReportRedaction.addressesMasked(text))
        case .null: return "null"
        default: return value.numberValue.map { numberText($0) } ?? "\(value)"
        }
    }

    static func numberText(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value) }

    /// video2 before video10.
    static func nodeOrder(_ a: String, _ b: String) -> Bool {
        func split(_ name: String) -> (String, Int) {
            let digits = name.reversed().prefix { $0.isNumber }
            return (String(name.dropLast(digits.count)), Int(String(digits.reversed())) ?? -1)
        }
        let (x, y) = (split(a), split(b))
        return x.0 != y.0 ? x.0 < y.0 : x.1 < y.1
    }
}
