import FoldcamCore

/// The rig posed in 3D for a picture (rig frame, millimetres): panel outlines, mounts and hinge
/// pivots. Where mounts sit on a face is schematic: the model only says which face.
/// Each hinge gets a small gap, as real hinges have, so panels folded shut do not lie in one
/// plane and the picture can show which one is on top.
struct RigScene {
    struct PanelShape {
        var index: Int
        var centre: Vector3
        var orientation: Rotation3
        var width: Double
        var height: Double

        /// A point on the panel given in its own frame (x right, y up).
        func point(_ x: Double, _ y: Double) -> Vector3 {
            centre + orientation.apply(Vector3(x, y, 0))
        }

        var corners: [Vector3] {
            let (w, h) = (width / 2, height / 2)
            return [point(-w, -h), point(w, -h), point(w, h), point(-w, h)]
        }

        func normal(_ side: FaceSide) -> Vector3 { orientation.apply(side.normal) }
    }

    struct HingeMark {
        var index: Int
        var pivot: Vector3
        /// Unit axis in the rig frame; the picture's arrow points along +axis.
        var axis: Vector3
        var halfLength: Double
    }

    struct CameraMark {
        var index: Int
        var face: FaceRef
        var position: Vector3
        /// End of the optical-axis arrow (along the face normal).
        var tip: Vector3
        /// Folded against another face: nothing of it can be seen, so it goes unlabelled.
        var covered: Bool
    }

    struct DisplayMark {
        var display: Int
        var face: FaceRef
        var corners: [Vector3]
        var centre: Vector3
    }

    let panels: [PanelShape]
    let hinges: [HingeMark]
    let cameras: [CameraMark]
    let displays: [DisplayMark]

    /// Panel-frame spots for labels and mounts, as fractions of the panel size.
    static let cameraRow = 0.38
    static let faceLabelRow = -0.38
    static let screenInset = (x: 0.42, y: 0.27)

    init(rig: Rig, angles: [Double]) {
        let pose = RigPose(rig: rig, angles: angles)
        let smallest = rig.panels.map { min($0.width, $0.height) }.min() ?? 1
        let gap = 0.06 * smallest
        let arrowLength = 0.3 * smallest

        // Shift each child (and its subtree) by the gap; parents come before children.
        let kinematic = pose.panelCentres(rig: rig, angles: angles)
        var shift = [Vector3](repeating: .zero, count: rig.panels.count)
        var hinges: [HingeMark] = []
        for (index, hinge) in rig.hinges.enumerated() {
            // Past 180° the child folds behind the parent, so the gap opens on the B side.
            let side = angles[index] <= 180 ? 0.5 * gap : -0.5 * gap
            let parentNormal = pose.orientations[hinge.parent].apply(.unitZ)
            let childNormal = pose.orientations[hinge.child].apply(.unitZ)
            shift[hinge.child] = shift[hinge.parent] + side * (parentNormal - childNormal)
            let parent = rig.panels[hinge.parent]
            let (edge, length) = Self.edgePoint(hinge.edge, of: parent)
            let pivot = kinematic[hinge.parent] + shift[hinge.parent]
                + pose.orientations[hinge.parent].apply(edge) + side * parentNormal
            let axis = pose.orientations[hinge.parent].apply(hinge.axis)
            hinges.append(HingeMark(index: index, pivot: pivot, axis: axis, halfLength: 0.6 * length))
        }
        let panels = rig.panels.indices.map { index in
            PanelShape(index: index, centre: kinematic[index] + shift[index], orientation: pose.orientations[index],
                       width: rig.panels[index].width, height: rig.panels[index].height)
        }

        var cameras: [CameraMark] = []
        for (index, camera) in rig.cameras.enumerated() {
            let shape = panels[camera.face.panel]
            let sharing = rig.cameras.indices.filter { rig.cameras[$0].face == camera.face }
            let slot = Double(sharing.firstIndex(of: index) ?? 0) - Double(sharing.count - 1) / 2
            let spacing = min(0.3 * shape.width, 0.8 * shape.width / Double(max(1, sharing.count - 1)))
            let position = shape.point(slot * spacing, Self.cameraRow * shape.height)
            let tip = position + arrowLength * shape.normal(camera.face.side)
            cameras.append(CameraMark(index: index, face: camera.face, position: position, tip: tip, covered: pose.isCovered(camera.face)))
        }

        var displays: [DisplayMark] = []
        for (index, display) in rig.displays.enumerated() {
            for face in display.faces {
                let shape = panels[face.panel]
                let (x, y) = (Self.screenInset.x * shape.width, Self.screenInset.y * shape.height)
                let corners = [shape.point(-x, -y), shape.point(x, -y), shape.point(x, y), shape.point(-x, y)]
                displays.append(DisplayMark(display: index, face: face, corners: corners, centre: shape.point(0, 0)))
            }
        }

        self.panels = panels
        self.hinges = hinges
        self.cameras = cameras
        self.displays = displays
    }

    /// Midpoint of a panel's edge in its own frame, and the edge's length.
    static func edgePoint(_ edge: PanelEdge, of panel: Panel) -> (Vector3, Double) {
        switch edge {
        case .right: return (Vector3(panel.width / 2, 0, 0), panel.height)
        case .left: return (Vector3(-panel.width / 2, 0, 0), panel.height)
        case .top: return (Vector3(0, panel.height / 2, 0), panel.width)
        case .bottom: return (Vector3(0, -panel.height / 2, 0), panel.width)
        }
    }

    /// Every point the picture draws, for fitting it to the page.
    var extent: [Vector3] {
        panels.flatMap(\.corners) + cameras.map(\.tip)
            + hinges.flatMap { [$0.pivot + $0.halfLength * $0.axis, $0.pivot - $0.halfLength * $0.axis] }
    }
}
