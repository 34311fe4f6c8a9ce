import FoldcamCore
import Testing

/// `foldcamctl report` leaves out what identifies one unit: serials, UUIDs and addresses.
@Suite struct ReportRedactionTests {
    @Test(arguments: [
        ("ID_SERIAL", "Chicony_Integrated_Camera_0001", "ID_SERIAL=<redacted>"),
        ("ID_SERIAL_SHORT", "0001", "ID_SERIAL_SHORT=<redacted>"),
        ("ID_FS_UUID", "1234", "ID_FS_UUID=<redacted>"),
        ("UNIQ", "\"12:34:56:78:9a:bc\"", "UNIQ=<redacted>"),
        ("ID_VENDOR_ID", "04f2", "ID_VENDOR_ID=04f2"),
        ("NAME", "\"ThinkPad Bluetooth TrackPoint Keyboard 12:34:56:78:9A:BC\"", "NAME=\"ThinkPad Bluetooth TrackPoint Keyboard XX:XX:XX:XX:XX:XX\""),
        ("PHYS", "\"usb-0000:00:14.0-5/input0\"", "PHYS=\"usb-0000:00:14.0-5/input0\""),
        ("HID_ID", "0003:00000B05:00001BF2", "HID_ID=0003:00000B05:00001BF2"),
        ("LINK", "aa-bb-cc-dd-ee-ff", "LINK=XX:XX:XX:XX:XX:XX"),
        ("LONG", "0a:0b:0c:0d:0e:0f:10", "LONG=0a:0b:0c:0d:0e:0f:10"),
    ])
    func properties(key: String, value: String, expected: String) {
        #expect(ReportRedaction.property(key, value) == expected)
    }
}
