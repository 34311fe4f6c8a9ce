/// Draws into a frame's luma (and chroma) in "upright" coordinates that a quarter turn maps to
/// raw frame coordinates: so a synthetic camera mounted at 90° draws its label turned, exactly
/// as a real sensor mounted that way would see the scene.
struct FrameCanvas {
    var frame: VideoFrame
    /// Counter-clockwise quarter turn from upright drawing coordinates to the raw frame.
    let turn: Int

    /// Size of the upright drawing area (the raw frame's, swapped for 90/270).
    var uprightSize: (width: Int, height: Int) {
        turn == 90 || turn == 270 ? (frame.height, frame.width) : (frame.width, frame.height)
    }

    /// Upright (x, y) → raw frame (x, y). A sensor turned by `turn` clockwise shows the upright
    /// scene turned counter-clockwise by the same amount.
    func rawPoint(_ x: Int, _ y: Int) -> (Int, Int) {
        let w = frame.width, h = frame.height
        switch turn {
        case 90: return (y, h - 1 - x)
        case 180: return (w - 1 - x, h - 1 - y)
        case 270: return (w - 1 - y, x)
        default: return (x, y)
        }
    }

    mutating func set(_ x: Int, _ y: Int, _ colour: YUV) {
        let upright = uprightSize
        guard x >= 0, y >= 0, x < upright.width, y < upright.height else { return }
        let (rx, ry) = rawPoint(x, y)
        let w = frame.width
        switch frame.format {
        case .nv12:
            frame.bytes[ry * w + rx] = colour.y
            let chroma = w * frame.height + (ry / 2) * w + (rx & ~1)
            frame.bytes[chroma] = colour.u
            frame.bytes[chroma + 1] = colour.v
        case .yuyv:
            let pair = (ry * w + (rx & ~1)) * 2
            frame.bytes[(ry * w + rx) * 2] = colour.y
            frame.bytes[pair + 1] = colour.u
            frame.bytes[pair + 3] = colour.v
        }
    }

    mutating func fillRectangle(x: Int, y: Int, width: Int, height: Int, _ colour: YUV) {
        for row in max(0, y)..<max(max(0, y), y + height) {
            for column in max(0, x)..<max(max(0, x), x + width) { set(column, row, colour) }
        }
    }

    /// Text in the bitmap font, `scale` pixels per font pixel, centred on (cx, cy).
    mutating func drawText(_ text: String, centreX cx: Int, centreY cy: Int, scale: Int, _ colour: YUV) {
        let characters = Array(text)
        let advance = (BitmapFont.width + 1) * scale
        let totalWidth = characters.count * advance - scale
        var left = cx - totalWidth / 2
        let top = cy - BitmapFont.height * scale / 2
        for character in characters {
            for gy in 0..<BitmapFont.height {
                for gx in 0..<BitmapFont.width where BitmapFont.isSet(character, x: gx, y: gy) {
                    fillRectangle(x: left + gx * scale, y: top + gy * scale, width: scale, height: scale, colour)
                }
            }
            left += advance
        }
    }

    /// An upward arrow (shaft and head) with its tip at (cx, top).
    mutating func drawUpArrow(centreX cx: Int, top: Int, length: Int, thickness: Int, _ colour: YUV) {
        let head = length / 3
        for row in 0..<head {
            let half = row  // a 45° head
            fillRectangle(x: cx - half, y: top + row, width: 2 * half + 1, height: 1, colour)
        }
        fillRectangle(x: cx - thickness / 2, y: top + head, width: thickness, height: length - head, colour)
    }
}
