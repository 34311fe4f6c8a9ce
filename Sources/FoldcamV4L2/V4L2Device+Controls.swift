import CV4L2
import FoldcamPlatform

/// The standard controls foldcam reads or sets, by name rather than by C id.
package enum V4L2Control: Sendable, CaseIterable {
    case horizontalFlip, verticalFlip, rotate
    /// Where the camera faces (front, back, external): `V4L2_CID_CAMERA_ORIENTATION`.
    case cameraOrientation
    /// How the sensor is mounted, degrees counter-clockwise: `V4L2_CID_CAMERA_SENSOR_ROTATION`.
    case cameraSensorRotation

    package var id: UInt32 {
        switch self {
        case .horizontalFlip: return cv4l2_CID_HFLIP
        case .verticalFlip: return cv4l2_CID_VFLIP
        case .rotate: return cv4l2_CID_ROTATE
        case .cameraOrientation: return cv4l2_CID_CAMERA_ORIENTATION
        case .cameraSensorRotation: return cv4l2_CID_CAMERA_SENSOR_ROTATION
        }
    }

    /// The C name, for errors and the journal.
    package var name: String {
        switch self {
        case .horizontalFlip: return "V4L2_CID_HFLIP"
        case .verticalFlip: return "V4L2_CID_VFLIP"
        case .rotate: return "V4L2_CID_ROTATE"
        case .cameraOrientation: return "V4L2_CID_CAMERA_ORIENTATION"
        case .cameraSensorRotation: return "V4L2_CID_CAMERA_SENSOR_ROTATION"
        }
    }
}

extension V4L2Device {
    /// Whether the device has `control`, enabled (`VIDIOC_QUERYCTRL`).
    package func has(_ control: V4L2Control) throws(SystemCallError) -> Bool {
        try hasControl(control.id, name: control.name)
    }

    /// `control`'s value, or nil when the device lacks it (`VIDIOC_QUERYCTRL`, `VIDIOC_G_CTRL`).
    package func value(of control: V4L2Control) throws(SystemCallError) -> Int? {
        try controlValue(control.id, name: control.name)
    }

    /// Sets `control` (`VIDIOC_S_CTRL`).
    package func set(_ control: V4L2Control, to value: Int32) throws(SystemCallError) {
        try setControl(control.id, value, name: control.name)
    }
}
