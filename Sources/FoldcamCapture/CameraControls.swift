import CVideoStreaming
import Glibc

/// Sets a camera's image controls without streaming from it, so a client can keep using the
/// camera: V4L2 allows any number of opens, and controls apply to the running stream.
public enum CameraControls {
    /// Turns the sensor's output by 180° (horizontal + vertical flip), or back.
    public static func setFlipped(node: String, _ flipped: Bool) -> Result<Void, VideoDeviceError> {
        do throws(VideoDeviceError) {
            let device = try VideoDeviceFile(node: node, nonBlocking: true)
            try device.setControl(cvs_CID_HFLIP, flipped ? 1 : 0, name: "V4L2_CID_HFLIP")
            try device.setControl(cvs_CID_VFLIP, flipped ? 1 : 0, name: "V4L2_CID_VFLIP")
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
