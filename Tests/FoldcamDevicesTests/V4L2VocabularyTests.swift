import FoldcamV4L2
import Testing

/// FoldcamV4L2's typed names for the C constants the device layer used to spell itself.
@Suite struct V4L2VocabularyTests {
    @Test func controlsCarryTheKernelsIDs() {
        // include/uapi/linux/v4l2-controls.h
        #expect(V4L2Control.horizontalFlip.id == 0x0098_0914)
        #expect(V4L2Control.verticalFlip.id == 0x0098_0915)
        #expect(V4L2Control.rotate.id == 0x0098_0922)
        #expect(V4L2Control.cameraOrientation.id == 0x009a_0922)
        #expect(V4L2Control.cameraSensorRotation.id == 0x009a_0923)
        #expect(Set(V4L2Control.allCases.map(\.id)).count == V4L2Control.allCases.count)
        #expect(V4L2Control.allCases.allSatisfy { $0.name.hasPrefix("V4L2_CID_") })
    }

    @Test func bufferTypesCarryTheKernelsValues() {
        // enum v4l2_buf_type, include/uapi/linux/videodev2.h
        #expect(V4L2BufferType.videoCapture.rawValue == 1)
        #expect(V4L2BufferType.videoOutput.rawValue == 2)
        #expect(V4L2BufferType.videoCaptureMultiplanar.rawValue == 9)
    }
}
