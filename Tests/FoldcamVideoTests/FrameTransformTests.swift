import FoldcamVideo
import Testing

/// Pixel-exact checks on tiny frames whose every byte is distinct, so any misplaced byte shows.
@Suite struct FrameTransformTests {
    /// A 4×2 NV12 frame: luma 0...7 row by row, chroma pairs (100,200), (101,201).
    static let nv12 = VideoFrame(format: .nv12, width: 4, height: 2, bytes: [0, 1, 2, 3, 4, 5, 6, 7, 100, 200, 101, 201])

    @Test func nv12Rotate180() {
        let turned = FrameTransform.applied(.init(rotation: 180), to: Self.nv12)
        #expect(turned.bytes == [7, 6, 5, 4, 3, 2, 1, 0, 101, 201, 100, 200])
        #expect(turned.width == 4 && turned.height == 2)
    }

    @Test func nv12Mirror() {
        let mirrored = FrameTransform.applied(.init(rotation: 0, mirror: true), to: Self.nv12)
        #expect(mirrored.bytes == [3, 2, 1, 0, 7, 6, 5, 4, 101, 201, 100, 200])
    }

    @Test func nv12Rotate90SwapsTheSize() {
        // 2×4 after turning clockwise: the left column (4, 0) becomes the top row.
        let turned = FrameTransform.applied(.init(rotation: 90), to: Self.nv12)
        #expect(turned.width == 2 && turned.height == 4)
        #expect(Array(turned.bytes[0..<8]) == [4, 0, 5, 1, 6, 2, 7, 3])
        #expect(Array(turned.bytes[8...]) == [100, 200, 101, 201])
    }

    @Test func nv12Rotate270() {
        let turned = FrameTransform.applied(.init(rotation: 270), to: Self.nv12)
        #expect(Array(turned.bytes[0..<8]) == [3, 7, 2, 6, 1, 5, 0, 4])
        #expect(Array(turned.bytes[8...]) == [101, 201, 100, 200])
    }

    /// A 4×2 YUYV frame: pixels' luma 0...7; each pair's chroma (U, V) distinct.
    static let yuyv = VideoFrame(format: .yuyv, width: 4, height: 2, bytes: [
        0, 10, 1, 20, 2, 11, 3, 21,
        4, 12, 5, 22, 6, 13, 7, 23,
    ])

    @Test func yuyvRotate180ReversesPairsAndSwapsLuma() {
        let turned = FrameTransform.applied(.init(rotation: 180), to: Self.yuyv)
        #expect(turned.bytes == [7, 13, 6, 23, 5, 12, 4, 22, 3, 11, 2, 21, 1, 10, 0, 20])
    }

    @Test func yuyvMirror() {
        let mirrored = FrameTransform.applied(.init(rotation: 0, mirror: true), to: Self.yuyv)
        #expect(mirrored.bytes == [3, 11, 2, 21, 1, 10, 0, 20, 7, 13, 6, 23, 5, 12, 4, 22])
    }

    @Test func yuyvRotate90TakesLumaExactlyAndChromaFromTheSourcePair() {
        let turned = FrameTransform.applied(.init(rotation: 90), to: Self.yuyv)
        #expect(turned.width == 2 && turned.height == 4)
        let luma = stride(from: 0, to: turned.bytes.count, by: 2).map { turned.bytes[$0] }
        #expect(luma == [4, 0, 5, 1, 6, 2, 7, 3])
    }

    @Test(arguments: [PixelFormat.nv12, .yuyv])
    func fourQuarterTurnsAndTwoMirrorsAreIdentity(format: PixelFormat) {
        var generator = 12345 as UInt64
        let count = format.byteCount(width: 8, height: 8)
        let bytes = (0..<count).map { _ -> UInt8 in
            generator = generator &* 6364136223846793005 &+ 1
            return UInt8(truncatingIfNeeded: generator >> 56)
        }
        let frame = VideoFrame(format: format, width: 8, height: 8, bytes: bytes)
        var turned = frame
        for _ in 0..<4 { turned = FrameTransform.applied(.init(rotation: 90), to: turned) }
        if format == .nv12 { #expect(turned.bytes == frame.bytes) }
        let twice = FrameTransform.applied(.init(rotation: 0, mirror: true), to: FrameTransform.applied(.init(rotation: 0, mirror: true), to: frame))
        #expect(twice.bytes == frame.bytes)
        let half = FrameTransform.applied(.init(rotation: 180), to: FrameTransform.applied(.init(rotation: 180), to: frame))
        #expect(half.bytes == frame.bytes)
    }

    @Test func reusedDestinationKeepsItsStorageWhenTheSizeMatches() {
        var destination = VideoFrame(format: .nv12, width: 4, height: 2, filledWith: YUV(y: 0, u: 0, v: 0))
        FrameTransform.apply(.init(rotation: 180), to: Self.nv12, into: &destination)
        let address = destination.bytes.withUnsafeBufferPointer { $0.baseAddress }
        FrameTransform.apply(.init(rotation: 180), to: Self.nv12, into: &destination)
        #expect(destination.bytes.withUnsafeBufferPointer { $0.baseAddress } == address)
    }
}

@Suite struct SyntheticFrameTests {
    @Test func cameraFramesHaveTheCamerasColourAndALabel() {
        let frame = SyntheticFrames.cameraFrame(id: "back", index: 2, sensorRotation: 0, format: .yuyv, width: 320, height: 240, timestamp: 5)
        let colour = SyntheticFrames.colour(forCameraAt: 2)
        #expect(frame.bytes[0] == colour.y && frame.bytes[1] == colour.u)
        #expect(frame.source == "back" && frame.timestamp == 5)
        // Some pixels are the white label/arrow.
        #expect(stride(from: 0, to: frame.bytes.count, by: 2).contains { frame.bytes[$0] > 200 })
    }

    /// The arrow marks where the panel's top shows in the raw frame: at the top for a sensor
    /// mounted upright; turned by the mount otherwise, and undone by the capture rotation.
    @Test(arguments: [0, 90, 180, 270])
    func arrowTurnsWithTheSensorMount(sensorRotation: Int) {
        let raw = SyntheticFrames.cameraFrame(id: "c", index: 0, sensorRotation: sensorRotation, format: .nv12, width: 64, height: 64, timestamp: 0)
        let upright = FrameTransform.applied(.init(rotation: sensorRotation), to: raw)
        let reference = SyntheticFrames.cameraFrame(id: "c", index: 0, sensorRotation: 0, format: .nv12, width: 64, height: 64, timestamp: 0)
        let luma = 64 * 64
        #expect(Array(upright.bytes[0..<luma]) == Array(reference.bytes[0..<luma]))
    }

    @Test func unavailableFrameIsDarkWithText() {
        let frame = SyntheticFrames.unavailableFrame(format: .nv12, width: 320, height: 180, timestamp: 0)
        #expect(frame.bytes[0] < 60)
        #expect(frame.bytes[0..<(320 * 180)].contains { $0 > 150 })
    }
}
