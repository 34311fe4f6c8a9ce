import CV4L2
import FoldcamPlatform

/// One control as `VIDIOC_QUERYCTRL` describes it, with its value when it has one.
package struct V4L2ControlInfo: Sendable, Equatable {
    package var id: UInt32
    package var name: String
    package var type: UInt32
    package var minimum: Int
    package var maximum: Int
    package var step: Int
    package var defaultValue: Int
    package var flags: UInt32
    /// nil when `VIDIOC_G_CTRL` was refused (a button, a class, a write-only control).
    package var value: Int?
}

extension V4L2Device {
    /// Every control the device (video node or sub-device) lists, in the driver's order
    /// (`V4L2_CTRL_FLAG_NEXT_CTRL`), at most `limit` of them: for `foldcamctl report`.
    package func listControls(limit: Int = 256) -> [V4L2ControlInfo] {
        var controls: [V4L2ControlInfo] = []
        var query = v4l2_queryctrl()
        query.id = cv4l2_CTRL_FLAG_NEXT_CTRL
        while controls.count < limit, (try? control(cv4l2_VIDIOC_QUERYCTRL, "VIDIOC_QUERYCTRL", &query)) == true {
            let name = withUnsafeBytes(of: query.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var current = v4l2_control()
            current.id = query.id
            let value = (try? control(cv4l2_VIDIOC_G_CTRL, "VIDIOC_G_CTRL", &current)) == true ? Int(current.value) : nil
            controls.append(V4L2ControlInfo(id: query.id, name: name, type: query.type, minimum: Int(query.minimum), maximum: Int(query.maximum),
                                            step: Int(query.step), defaultValue: Int(query.default_value), flags: query.flags, value: value))
            query.id |= cv4l2_CTRL_FLAG_NEXT_CTRL
        }
        return controls
    }
}
