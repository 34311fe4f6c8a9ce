import FoldcamCore
import Foundation
import Testing

@Suite struct Base64Tests {
    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")])
    func rfc4648Vectors(input: String, expected: String) {
        #expect(Base64.encode(Array(input.utf8)) == expected)
    }

    @Test func agreesWithFoundationOnEveryByteAndLength() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString(), "length \(length)")
        }
        let all = (0...255).map(UInt8.init)
        #expect(Base64.encode(all) == Data(all).base64EncodedString())
    }

    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")])
    func decodesRFC4648Vectors(expected: String, input: String) {
        #expect(Base64.decode(input) == Array(expected.utf8))
    }

    @Test func decodingUndoesEncodingAndAgreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Base64.encode(bytes)
            #expect(Base64.decode(text) == bytes, "length \(length)")
            #expect(Base64.decode(text) == Data(base64Encoded: text).map(Array.init), "length \(length)")
        }
    }

    /// What `foldcamctl snapshot` refuses rather than writing a damaged PNG.
    @Test(arguments: ["Zg", "Zg=", "Z===", "====", "AB=C", "Zg==Zm8=", "Zm9v\n", "Zm-v", "Zm9v Zg=="])
    func malformedTextIsRefused(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
