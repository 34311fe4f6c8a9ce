import FoldcamCore

/// Turns USB devices appearing and going (udev `usb` subsystem, `DEVTYPE=usb_device`) into the
/// rig's presence inputs: an input is present while at least one matching device is. Plain
/// values in, events out; the debounce is the engine's (`PresenceDebounce`).
struct PresenceMatcher {
    private let inputs: [PresenceInput]
    /// Syspaths of the matching devices present now, per input.
    private var present: [Set<String>]

    init(rig: Rig) {
        inputs = rig.presence
        present = Array(repeating: [], count: rig.presence.count)
    }

    var isEmpty: Bool { inputs.isEmpty }

    /// `vendor:product` in lowercase hex from udev's `ID_VENDOR_ID`/`ID_MODEL_ID`, else from the
    /// kernel's `PRODUCT` (`b05/1b2c/100`: hex without leading zeros).
    static func usbID(_ record: UdevRecord) -> String? {
        guard record.subsystem == "usb", record.properties["DEVTYPE"] == "usb_device" else { return nil }
        if let vendor = record.properties["ID_VENDOR_ID"], let product = record.properties["ID_MODEL_ID"] {
            return "\(vendor.lowercased()):\(product.lowercased())"
        }
        guard let parts = record.properties["PRODUCT"]?.split(separator: "/"), parts.count >= 2,
              let vendor = Int(parts[0], radix: 16), let product = Int(parts[1], radix: 16) else { return nil }
        func hex(_ value: Int) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
        return "\(hex(vendor)):\(hex(product))"
    }

    /// A device was added (or enumerated at start): the inputs it makes present.
    mutating func added(_ record: UdevRecord) -> [InputEvent] {
        guard let id = Self.usbID(record) else { return [] }
        var events: [InputEvent] = []
        for index in inputs.indices where inputs[index].usbIDs.contains(id) {
            let wasPresent = !present[index].isEmpty
            present[index].insert(record.syspath)
            if !wasPresent { events.append(.presence(input: index, present: true)) }
        }
        return events
    }

    /// A device went (matched by syspath: a remove event may carry fewer properties).
    mutating func removed(syspath: String) -> [InputEvent] {
        var events: [InputEvent] = []
        for index in inputs.indices where present[index].contains(syspath) {
            present[index].remove(syspath)
            if present[index].isEmpty { events.append(.presence(input: index, present: false)) }
        }
        return events
    }

    /// How a matched device is named in the log.
    func describe(_ events: [InputEvent]) -> [String] {
        events.compactMap { event in
            guard case let .presence(input, isPresent) = event else { return nil }
            return "presence input \(inputs[input].id): a matching USB device \(isPresent ? "appeared" : "went")"
        }
    }
}
