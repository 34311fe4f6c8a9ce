import FoldcamPlatform
import FoldcamV4L2

/// Sets a camera's image controls without streaming from it, so a client can keep using the
/// camera: V4L2 allows any number of opens, and controls apply to the running stream.
public enum CameraControls {
    /// Turns the sensor's output by 180° (horizontal + vertical flip), or back.
    public static func setFlipped(node: String, _ flipped: Bool) -> Result<Void, SystemCallError> {
        do throws(SystemCallError) {
            let device = try V4L2Device(node: node, access: .kernel, nonBlocking: true)
            try device.set(.horizontalFlip, to: flipped ? 1 : 0)
            try device.set(.verticalFlip, to: flipped ? 1 : 0)
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
