import FoldcamCore

/// libinput switch toggles as engine inputs. Kept apart from the libinput owner so the mapping
/// is tested without libinput (libinput itself is exercised in the qemu tier, Tests/e2e).
public enum SwitchTranslation {
    public enum Switch: Sendable, Equatable {
        case lid, tabletMode
    }

    /// `SW_LID` on means the lid is closed; `SW_TABLET_MODE` on means tablet mode.
    public static func event(_ which: Switch, on: Bool) -> InputEvent {
        switch which {
        case .lid: return .lidSwitch(closed: on)
        case .tabletMode: return .tabletModeSwitch(on: on)
        }
    }
}
