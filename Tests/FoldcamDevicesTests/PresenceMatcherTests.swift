import FoldcamCore
@testable import FoldcamDevices
import Foundation
import Testing

/// USB devices to presence inputs: the Zenbook Duo's keyboard docked shows as a USB device
/// `0b05:1b2c` (`0b05:1bf2` on the 2025 model; hemagome/zenbook-duo-ux8406ca-linux
/// docs/keyboard-dock.md, asusctl#25).
@Suite struct PresenceMatcherTests {
    static func rig() throws -> Rig {
        var text = try #require(RigPresets.json("dual-screen"))
        text = text.replacingOccurrences(of: #""postures""#, with: #""presence": [{"id": "keyboard", "usb": ["0b05:1b2c", "0b05:1bf2"], "covers": ["bottom"]}], "postures""#)
        return try RigDecoder.decode(json: text)
    }

    static func usb(_ syspath: String, _ properties: [String: String]) -> UdevRecord {
        UdevRecord(syspath: syspath, sysname: "3-1", subsystem: "usb", devnode: nil, properties: properties)
    }

    @Test(arguments: [
        (["DEVTYPE": "usb_device", "ID_VENDOR_ID": "0b05", "ID_MODEL_ID": "1b2c"], "0b05:1b2c"),
        (["DEVTYPE": "usb_device", "PRODUCT": "b05/1bf2/100"], "0b05:1bf2"),
        (["DEVTYPE": "usb_interface", "PRODUCT": "b05/1bf2/100"], nil),
    ] as [([String: String], String?)])
    func readsTheUSBID(properties: [String: String], id: String?) {
        #expect(PresenceMatcher.usbID(Self.usb("/sys/devices/usb3/3-1", properties)) == id)
    }

    @Test func presentWhileAnyMatchingDeviceIs() throws {
        var matcher = PresenceMatcher(rig: try Self.rig())
        let keyboard = Self.usb("/sys/devices/usb3/3-1", ["DEVTYPE": "usb_device", "ID_VENDOR_ID": "0B05", "ID_MODEL_ID": "1B2C"])
        let other = Self.usb("/sys/devices/usb3/3-2", ["DEVTYPE": "usb_device", "ID_VENDOR_ID": "046d", "ID_MODEL_ID": "c52b"])
        #expect(matcher.added(other).isEmpty)
        #expect(matcher.added(keyboard) == [.presence(input: 0, present: true)])
        #expect(matcher.describe([.presence(input: 0, present: true)]) == ["presence input keyboard: a matching USB device appeared"])
        #expect(matcher.added(keyboard).isEmpty, "a change event of the same device is not a second one")
        #expect(matcher.removed(syspath: "/sys/devices/usb3/3-2").isEmpty)
        #expect(matcher.removed(syspath: keyboard.syspath) == [.presence(input: 0, present: false)])
    }
}

