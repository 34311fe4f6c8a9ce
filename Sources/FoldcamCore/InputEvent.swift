/// Everything that can happen to a rig, as the hardware layer and the simulator report it.
/// The scenario runner, the simulator and the real devices all feed the engine these.
public enum InputEvent: Sendable, Equatable {
    /// A hinge sensor reading, degrees.
    case hingeAngle(hinge: Int, degrees: Double)
    /// The hinge sensor went away (driver unbound, device removed).
    case hingeSensorLost(hinge: Int)
    /// `SW_LID`: true when closed.
    case lidSwitch(closed: Bool)
    /// `SW_TABLET_MODE`: true when on.
    case tabletModeSwitch(on: Bool)
    /// Gravity (pointing down) in the rig (root panel) frame, any scale.
    case gravity(Vector3)
    /// An accelerometer reading: gravity in its own panel's frame, mount matrix applied.
    case accelerometer(sensor: Int, reading: Vector3)
    case accelerometerLost(sensor: Int)
    /// iio-sensor-proxy's quarter-turn orientation of an accelerometer it holds (read over D-Bus
    /// while foldcam's own reads of it fail): a hint of gravity for rotation only, never paired
    /// into a hinge angle; `undefined` withdraws it.
    case accelerometerOrientation(sensor: Int, orientation: ProxyOrientation)
    /// Clockwise degrees the display's content is turned (0, 90, 180, 270).
    case screenRotation(display: Int, degrees: Int)
    /// A client pins the viewed display, or unpins with nil.
    case pinView(display: Int?)
    case cameraPlugged(camera: Int)
    case cameraUnplugged(camera: Int)
    /// Another process holds the camera (EBUSY), or released it.
    case cameraBusy(camera: Int, busy: Bool)
    /// What DRM says of a display's output: its state and, where the kernel reports one, the
    /// connector's `panel orientation` as a clockwise mount rotation.
    case output(display: Int, state: OutputState, panelOrientation: Int?)
    /// A presence input's device appeared or went (udev), before the debounce.
    case presence(input: Int, present: Bool)
    /// Time passes (milliseconds).
    case advanceTime(milliseconds: Int)
}
