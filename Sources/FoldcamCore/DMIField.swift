/// The DMI (SMBIOS) fields a device model matches on, named as the kernel names their files in
/// `/sys/class/dmi/id` (docs/devices.md, "Matching").
public enum DMIField: String, CaseIterable, Sendable, Comparable {
    case sysVendor = "sys_vendor"
    case productName = "product_name"
    case productVersion = "product_version"
    case productFamily = "product_family"
    case productSKU = "product_sku"
    case boardName = "board_name"

    public static func < (a: DMIField, b: DMIField) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
