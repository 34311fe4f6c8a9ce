/// What ties a rig display to the output a compositor shows it as: a DRM connector name
/// (`eDP-1`), optionally an EDID match for outputs whose connector name is not stable, and how
/// the panel is turned in its housing (docs/rig-format.md, "Outputs").
public struct DisplayOutput: Sendable, Equatable {
    /// A DRM connector name, `TYPE-N`; nil when only `edid` names the output.
    public var connector: String?
    public var edid: EDIDMatch?
    /// Clockwise degrees the panel's own top is turned from the anchor panel's +y, as written in
    /// the rig; nil leaves it to the kernel's `panel orientation` property (else 0).
    public var mountRotation: Int?

    public init(connector: String?, edid: EDIDMatch? = nil, mountRotation: Int? = nil) {
        self.connector = connector
        self.edid = edid
        self.mountRotation = mountRotation
    }
}

/// Fields of an output's EDID; every field given must match.
public struct EDIDMatch: Sendable, Equatable {
    /// The three-letter PNP manufacturer id (`BOE`, `SDC`).
    public var vendor: String?
    /// The manufacturer's product code.
    public var product: Int?
    /// The serial: the EDID's serial string, or its 32-bit serial number in decimal.
    public var serial: String?

    public init(vendor: String? = nil, product: Int? = nil, serial: String? = nil) {
        self.vendor = vendor
        self.product = product
        self.serial = serial
    }

    public func matches(_ identity: EDIDIdentity) -> Bool {
        if let vendor, vendor != identity.vendor { return false }
        if let product, product != identity.product { return false }
        if let serial, serial != identity.serialText, serial != String(identity.serialNumber) { return false }
        return true
    }
}

/// What an output's EDID says it is (parsed by `EDIDIdentity.init(bytes:)`).
public struct EDIDIdentity: Sendable, Equatable {
    public var vendor: String
    public var product: Int
    public var serialNumber: UInt32
    /// The display descriptor tagged 0xFF, if any.
    public var serialText: String?

    public init(vendor: String, product: Int, serialNumber: UInt32, serialText: String?) {
        self.vendor = vendor
        self.product = product
        self.serialNumber = serialNumber
        self.serialText = serialText
    }

    /// Parses the 128-byte base block (VESA E-EDID 1.4: header 00 FF FF FF FF FF FF 00,
    /// manufacturer bytes 8-9 as three 5-bit letters, product 10-11 and serial 12-15 little
    /// endian, four 18-byte descriptors from byte 54). Nil for anything else.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 128, bytes[0..<8].elementsEqual([0, 255, 255, 255, 255, 255, 255, 0]) else { return nil }
        let packed = Int(bytes[8]) << 8 | Int(bytes[9])
        let letters = [(packed >> 10) & 31, (packed >> 5) & 31, packed & 31]
        guard letters.allSatisfy({ (1...26).contains($0) }) else { return nil }
        vendor = String(letters.map { Character(Unicode.Scalar(UInt8(64 + $0))) })
        product = Int(bytes[10]) | Int(bytes[11]) << 8
        serialNumber = UInt32(bytes[12]) | UInt32(bytes[13]) << 8 | UInt32(bytes[14]) << 16 | UInt32(bytes[15]) << 24
        serialText = nil
        for start in stride(from: 54, to: 126, by: 18) where bytes[start] == 0 && bytes[start + 1] == 0 && bytes[start + 3] == 0xFF {
            let text = bytes[(start + 5)..<(start + 18)].prefix { $0 != 0x0A && $0 != 0 }
            serialText = String(decoding: text, as: UTF8.self).trimmingSpaces
        }
    }
}

/// DRM connector names: `TYPE-N`, with the type names the kernel gives them
/// (`drm_connector_enum_list` in the Linux kernel's drivers/gpu/drm/drm_connector.c).
public enum ConnectorName {
    public static let types = [
        "Unknown", "VGA", "DVI-I", "DVI-D", "DVI-A", "Composite", "SVIDEO", "LVDS", "Component",
        "DIN", "DP", "HDMI-A", "HDMI-B", "TV", "eDP", "Virtual", "DSI", "DPI", "Writeback", "SPI", "USB",
    ]

    /// Nil when `name` is a connector name, else why not (with the nearest valid name).
    public static func problem(_ name: String) -> String? {
        let dash = name.lastIndex(of: "-")
        let type = dash.map { String(name[..<$0]) } ?? name
        let number = dash.map { String(name[name.index(after: $0)...]) } ?? ""
        let validNumber = Int(number).map { $0 >= 1 && String($0) == number } ?? false
        if types.contains(type) && validNumber { return nil }
        let example = validNumber ? number : "1"
        let candidates = types.map { "\($0)-\(example)" }
        let hint = NearestName.hint(for: name, among: candidates)
        if !types.contains(type) {
            return "unknown DRM connector \"\(name)\"\(hint) (expected TYPE-N with TYPE one of: \(types.joined(separator: ", ")); `ls /sys/class/drm` lists them as cardK-TYPE-N)"
        }
        return "\"\(name)\" has no connector number (expected \(type)-1, \(type)-2, ...)"
    }
}

/// An output's state as DRM reports it (`status`, `enabled` and `dpms` in
/// /sys/class/drm/cardK-NAME): `unknown` when it was not observed (no DRM access, simulate mode).
public enum OutputState: String, Sendable, Equatable, CaseIterable {
    case on, off, disconnected, unknown

    /// From the connector's sysfs attributes; nil attributes were not readable.
    public init(status: String?, enabled: String?, dpms: String?) {
        switch status {
        case "disconnected": self = .disconnected
        case "connected":
            if enabled == "disabled" || (dpms.map { $0 != "On" } ?? false) {
                self = .off
            } else if enabled == "enabled" {
                self = .on
            } else {
                self = .unknown
            }
        default: self = .unknown
        }
    }

    /// Off and disconnected outputs show nothing: nobody views their display.
    public var showsNothing: Bool { self == .off || self == .disconnected }
}

/// Where a display's effective mount rotation came from.
public enum MountRotationSource: String, Sendable, Equatable {
    case rig, kernel
    /// Neither says: 0.
    case none
}

/// Why nobody can view a display now.
public enum UnviewableReason: String, Sendable, Equatable {
    /// A face is covered (folded shut).
    case occluded
    case outputOff
    case outputDisconnected
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}

/// The DRM connector property `panel orientation` (Linux kernel, drivers/gpu/drm/drm_connector.c:
/// "Normal", "Upside Down", "Left Side Up", "Right Side Up") as a clockwise mount rotation. The
/// kernel's `enum drm_panel_orientation` (include/drm/drm_connector.h) says LEFT_UP is "the left
/// side of the panel matches the top side of the device's casing": the panel's own top then
/// points at the casing's right, turned 90° clockwise (the kernel's fbdev rotates by 90 to undo it).
public enum PanelOrientation {
    public static func mountRotation(_ value: String) -> Int? {
        switch value {
        case "Normal": 0
        case "Left Side Up": 90
        case "Upside Down": 180
        case "Right Side Up": 270
        default: nil
        }
    }
}
