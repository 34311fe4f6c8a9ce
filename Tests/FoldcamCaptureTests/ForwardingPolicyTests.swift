@testable import FoldcamCapture
import FoldcamCore
import Testing

/// The zero-copy decisions as tables, without a kernel: each scenario is what the producer
/// thread would feed `ForwardingPolicy` (events, and writes that take a page) and what it must
/// answer, step by step. The guest's 8* checks run the same decisions on real drivers: 88 (the
/// fold and back, pages moved between cameras), 85 (pre-warm), 89 (a shared camera), 87 (a
/// reader that shrinks the loopback).
@Suite struct ForwardingPolicyTests {
    typealias Event = ForwardingPolicy.Event
    typealias Action = ForwardingPolicy.Action

    enum Step {
        /// An event and the actions it must produce, in order.
        case on(Event, [Action])
        /// A write of the daemon's own frame (`version`) and the page it must take.
        case own(UInt64?, ForwardingPolicy.PagePublish, published: Bool)
        /// A camera's capture into `page` is shown.
        case lent(page: Int)
        /// Another virtual camera starts sharing `camera`'s stream (`.hosted`).
        case guestJoins(String, [Action])
    }

    struct Scenario: CustomTestStringConvertible, Sendable {
        let name: String
        var hosted: Set<String> = []
        let steps: [Step]
        var testDescription: String { name }
    }

    static func run(_ scenario: Scenario) -> ForwardingPolicy {
        var policy = ForwardingPolicy()
        var hosted = scenario.hosted
        for (number, step) in scenario.steps.enumerated() {
            let context = Comment(rawValue: "\(scenario.name), step \(number + 1)")
            switch step {
            case let .on(event, expected):
                let shared = hosted
                let actions = policy.handle(event) { shared.contains($0) }
                #expect(actions == expected, context)
            case let .guestJoins(camera, expected):
                hosted.insert(camera)
                let shared = hosted
                let actions = policy.handle(.hosted(camera: camera)) { shared.contains($0) }
                #expect(actions == expected, context)
            case let .own(version, expected, published):
                let outcome = policy.publishOwn(version: version)
                #expect(outcome.publish == expected, context)
                #expect(outcome.published == published, context)
            case let .lent(page):
                #expect(policy.publishLent(page: page) == .queue(page: page), context)
            }
        }
        return policy
    }

    /// The daemon's idle frame in page 0, then inner-front streaming zero-copy into 1...3 and
    /// fed: where most scenarios start.
    static let innerStreamsZeroCopy: [Step] = [
        .on(.mapped(pages: 4), []),
        .own(1, .copyInto(page: 0), published: true),
        .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: [1, 2, 3])]),
        .on(.opened(camera: "inner", ticket: 1, lent: true, path: .zeroCopy), [.report(camera: "inner", path: .zeroCopy), .adopt(camera: "inner", ticket: 1)]),
        .on(.feed(camera: "inner"), []),
        .lent(page: 1),
        .on(.written(shown: "inner"), []),
    ]

    /// Then outer-front opens while inner holds the pages: on its own buffers, and says why.
    static let outerOpensBesideIt: [Step] = innerStreamsZeroCopy + [
        .on(.open(camera: "outer", node: "/dev/video1"), [.report(camera: "outer", path: .copy(.buffersLent)), .start(camera: "outer", node: "/dev/video1", ticket: 2, pages: nil)]),
        .on(.opened(camera: "outer", ticket: 2, lent: false, path: nil), [.adopt(camera: "outer", ticket: 2)]),
    ]

    static let scenarios: [Scenario] = [
        Scenario(name: "without a mapping a camera opens on its own buffers, silently", steps: [
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: nil)]),
            .on(.opened(camera: "inner", ticket: 1, lent: false, path: nil), [.adopt(camera: "inner", ticket: 1)]),
            .on(.feed(camera: "inner"), []),
            .on(.tick(loopbackDistinct: true), []),
            .on(.written(shown: "inner"), []),
        ]),
        Scenario(name: "the first camera gets three pages, never the one the idle frame is shown in", steps: innerStreamsZeroCopy),
        Scenario(name: "with nothing shown yet the first three pages are lent", steps: [
            .on(.mapped(pages: 4), []),
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: [0, 1, 2])]),
        ]),
        Scenario(name: "a second camera while the pages are lent opens on its own buffers and says why", steps: outerOpensBesideIt),
        Scenario(name: "a fold: the camera switched to moves into the pages once they are back and its frame is shown", steps: outerOpensBesideIt + [
            .on(.feed(camera: "outer"), []),
            .on(.close(camera: "inner"), [.retire(camera: "inner")]),
            .on(.tick(loopbackDistinct: true), []),
            // outer's frame, from its own buffers, copied into the one free page.
            .own(nil, .copyInto(page: 0), published: true),
            // Its pages are still being given back: no reopen yet.
            .on(.written(shown: "outer"), []),
            .on(.returned(lender: 1, shown: "outer"), [.retire(camera: "outer"), .start(camera: "outer", node: "/dev/video1", ticket: 3, pages: [1, 2, 3])]),
            .on(.opened(camera: "outer", ticket: 3, lent: true, path: .zeroCopy), [.report(camera: "outer", path: .zeroCopy), .adopt(camera: "outer", ticket: 3)]),
        ]),
        Scenario(name: "pages that come back before the fed camera's frame is on screen wait for it", steps: outerOpensBesideIt + [
            .on(.feed(camera: "outer"), []),
            .on(.close(camera: "inner"), [.retire(camera: "inner")]),
            .on(.returned(lender: 1, shown: "inner"), []),
            .on(.written(shown: "inner"), []),
            // Into the page never shown; inner's last frame stays in page 0 a while.
            .own(nil, .copyInto(page: 2), published: true),
            .on(.written(shown: "outer"), [.retire(camera: "outer"), .start(camera: "outer", node: "/dev/video1", ticket: 3, pages: [0, 1, 3])]),
        ]),
        Scenario(name: "the page on screen is never lent, even when every page is free", steps: innerStreamsZeroCopy + [
            .lent(page: 2),
            .on(.close(camera: "inner"), [.retire(camera: "inner")]),
            .on(.returned(lender: 1, shown: "inner"), []),
            .on(.open(camera: "outer", node: "/dev/video1"), [.start(camera: "outer", node: "/dev/video1", ticket: 2, pages: [0, 1, 3])]),
        ]),
        Scenario(name: "folding back: the first camera's second stream gets the pages again", steps: outerOpensBesideIt + [
            .on(.feed(camera: "outer"), []),
            .on(.close(camera: "inner"), [.retire(camera: "inner")]),
            .own(nil, .copyInto(page: 0), published: true),
            .on(.returned(lender: 1, shown: "outer"), [.retire(camera: "outer"), .start(camera: "outer", node: "/dev/video1", ticket: 3, pages: [1, 2, 3])]),
            .on(.opened(camera: "outer", ticket: 3, lent: true, path: .zeroCopy), [.report(camera: "outer", path: .zeroCopy), .adopt(camera: "outer", ticket: 3)]),
            .on(.returned(lender: 99, shown: "outer"), []),
            .lent(page: 2),
            .on(.open(camera: "inner", node: "/dev/video0"), [.report(camera: "inner", path: .copy(.buffersLent)), .start(camera: "inner", node: "/dev/video0", ticket: 4, pages: nil)]),
            .on(.opened(camera: "inner", ticket: 4, lent: false, path: nil), [.adopt(camera: "inner", ticket: 4)]),
            .on(.feed(camera: "inner"), []),
            .on(.close(camera: "outer"), [.retire(camera: "outer")]),
            .own(nil, .copyInto(page: 0), published: true),
            .on(.returned(lender: 3, shown: "inner"), [.retire(camera: "inner"), .start(camera: "inner", node: "/dev/video0", ticket: 5, pages: [1, 2, 3])]),
        ]),
        Scenario(name: "pre-warm: a fed camera on its own buffers takes the pages from the camera still open", steps: outerOpensBesideIt + [
            .on(.feed(camera: "outer"), []),
            .on(.tick(loopbackDistinct: true), [.retire(camera: "inner"), .start(camera: "inner", node: "/dev/video0", ticket: 3, pages: nil)]),
            .on(.opened(camera: "inner", ticket: 3, lent: false, path: nil), [.adopt(camera: "inner", ticket: 3)]),
            .own(nil, .copyInto(page: 0), published: true),
            .on(.returned(lender: 1, shown: "outer"), [.retire(camera: "outer"), .start(camera: "outer", node: "/dev/video1", ticket: 4, pages: [1, 2, 3])]),
        ]),
        Scenario(name: "a fed camera in the pages leaves another camera on its own buffers alone", steps: outerOpensBesideIt + [
            .on(.tick(loopbackDistinct: true), []),
            .on(.written(shown: "inner"), []),
        ]),
        Scenario(name: "a camera that refused the pages gives them back and is not offered them again", steps: [
            .on(.mapped(pages: 4), []),
            .own(1, .copyInto(page: 0), published: true),
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: [1, 2, 3])]),
            .on(.opened(camera: "inner", ticket: 1, lent: false, path: .copy(.cameraRefused("EFAULT"))), [.report(camera: "inner", path: .copy(.cameraRefused("EFAULT"))), .adopt(camera: "inner", ticket: 1)]),
            .on(.feed(camera: "inner"), []),
            .own(nil, .copyInto(page: 1), published: true),
            .on(.written(shown: "inner"), []),
            // The pages are free: another camera gets them.
            .on(.open(camera: "outer", node: "/dev/video1"), [.start(camera: "outer", node: "/dev/video1", ticket: 2, pages: [0, 2, 3])]),
        ]),
        Scenario(name: "a camera closed while its open is on its way is stopped as it arrives, its pages kept until stopped", steps: [
            .on(.mapped(pages: 4), []),
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: [0, 1, 2])]),
            .on(.close(camera: "inner"), []),
            .on(.opened(camera: "inner", ticket: 1, lent: true, path: .zeroCopy), [.discard(ticket: 1)]),
            .on(.open(camera: "outer", node: "/dev/video1"), [.report(camera: "outer", path: .copy(.buffersLent)), .start(camera: "outer", node: "/dev/video1", ticket: 2, pages: nil)]),
            .on(.returned(lender: 1, shown: nil), []),
            .on(.open(camera: "third", node: "/dev/video2"), [.start(camera: "third", node: "/dev/video2", ticket: 3, pages: [0, 1, 2])]),
        ]),
        Scenario(name: "a camera closed and opened again while opening takes the open on its way", steps: [
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: nil)]),
            .on(.close(camera: "inner"), []),
            .on(.open(camera: "inner", node: "/dev/video0"), []),
            .on(.opened(camera: "inner", ticket: 1, lent: false, path: nil), [.adopt(camera: "inner", ticket: 1)]),
        ]),
        Scenario(name: "a camera back under another node is opened afresh and the stale stream stopped", steps: [
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: nil)]),
            .on(.close(camera: "inner"), []),
            .on(.open(camera: "inner", node: "/dev/video5"), [.start(camera: "inner", node: "/dev/video5", ticket: 2, pages: nil)]),
            .on(.opened(camera: "inner", ticket: 1, lent: false, path: nil), [.discard(ticket: 1)]),
            .on(.opened(camera: "inner", ticket: 2, lent: false, path: nil), [.adopt(camera: "inner", ticket: 2)]),
        ]),
        Scenario(name: "a failed open is reported while the camera is wanted", steps: [
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: nil)]),
            .on(.openFailed(camera: "inner", ticket: 1), [.openFailed(camera: "inner", report: true)]),
            .on(.openFailed(camera: "inner", ticket: 1), []),
        ]),
        Scenario(name: "a failed open of a camera closed meanwhile is nobody's concern", steps: [
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: nil)]),
            .on(.close(camera: "inner"), []),
            .on(.openFailed(camera: "inner", ticket: 1), [.openFailed(camera: "inner", report: false)]),
        ]),
        Scenario(name: "a stale open's failure is ignored", steps: [
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: nil)]),
            .on(.close(camera: "inner"), []),
            .on(.open(camera: "inner", node: "/dev/video5"), [.start(camera: "inner", node: "/dev/video5", ticket: 2, pages: nil)]),
            .on(.openFailed(camera: "inner", ticket: 1), []),
            .on(.opened(camera: "inner", ticket: 2, lent: false, path: nil), [.adopt(camera: "inner", ticket: 2)]),
        ]),
        Scenario(name: "a failed open's pages are free at once", steps: [
            .on(.mapped(pages: 4), []),
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: [0, 1, 2])]),
            .on(.openFailed(camera: "inner", ticket: 1), [.openFailed(camera: "inner", report: true)]),
            .on(.open(camera: "outer", node: "/dev/video1"), [.start(camera: "outer", node: "/dev/video1", ticket: 2, pages: [0, 1, 2])]),
        ]),
        Scenario(name: "a reader shrinking the loopback abandons the mapping once, and cameras open without pages", steps: innerStreamsZeroCopy + [
            .on(.tick(loopbackDistinct: false), [.abandonMapping, .report(camera: nil, path: .copy(.readerShrankLoopback))]),
            .on(.tick(loopbackDistinct: false), []),
            .own(2, .nothing, published: false),
            .on(.close(camera: "inner"), [.retire(camera: "inner")]),
            .on(.returned(lender: 1, shown: nil), []),
            .on(.open(camera: "outer", node: "/dev/video1"), [.start(camera: "outer", node: "/dev/video1", ticket: 2, pages: nil)]),
            .on(.opened(camera: "outer", ticket: 2, lent: false, path: nil), [.adopt(camera: "outer", ticket: 2)]),
            .on(.feed(camera: "outer"), []),
            .on(.written(shown: "outer"), []),
        ]),
        Scenario(name: "a shared camera opens on its own buffers and says why", hosted: ["inner"], steps: [
            .on(.mapped(pages: 4), []),
            .on(.open(camera: "inner", node: "/dev/video0"), [.report(camera: "inner", path: .copy(.sharedCamera)), .start(camera: "inner", node: "/dev/video0", ticket: 1, pages: nil)]),
            .on(.opened(camera: "inner", ticket: 1, lent: false, path: nil), [.adopt(camera: "inner", ticket: 1)]),
            .on(.feed(camera: "inner"), []),
            // Fed, shown, pages free: still not reopened into them while it is shared.
            .own(nil, .copyInto(page: 0), published: true),
            .on(.written(shown: "inner"), []),
        ]),
        Scenario(name: "a camera's first guest moves its stream out of the pages, for good", steps: innerStreamsZeroCopy + [
            .guestJoins("inner", [.retire(camera: "inner"), .report(camera: "inner", path: .copy(.sharedCamera)), .start(camera: "inner", node: "/dev/video0", ticket: 2, pages: nil)]),
            .on(.opened(camera: "inner", ticket: 2, lent: false, path: nil), [.adopt(camera: "inner", ticket: 2)]),
            .on(.returned(lender: 1, shown: "inner"), []),
            .on(.written(shown: "inner"), []),
        ]),
        Scenario(name: "a first guest of a camera on its own buffers changes nothing", steps: [
            .on(.open(camera: "inner", node: "/dev/video0"), [.start(camera: "inner", node: "/dev/video0", ticket: 1, pages: nil)]),
            .on(.opened(camera: "inner", ticket: 1, lent: false, path: nil), [.adopt(camera: "inner", ticket: 1)]),
            .guestJoins("inner", []),
        ]),
        Scenario(name: "an unplugged camera's stream is retired and its pages wait to be given back", steps: innerStreamsZeroCopy + [
            .on(.streamFailed(camera: "inner"), [.retire(camera: "inner")]),
            .on(.streamFailed(camera: "inner"), []),
            .on(.open(camera: "outer", node: "/dev/video1"), [.report(camera: "outer", path: .copy(.buffersLent)), .start(camera: "outer", node: "/dev/video1", ticket: 2, pages: nil)]),
        ]),
        Scenario(name: "shutdown retires every stream and forgets the opens on their way", steps: outerOpensBesideIt + [
            .on(.open(camera: "third", node: "/dev/video2"), [.report(camera: "third", path: .copy(.buffersLent)), .start(camera: "third", node: "/dev/video2", ticket: 3, pages: nil)]),
            .on(.shutdown, [.retire(camera: "inner"), .retire(camera: "outer")]),
            .on(.opened(camera: "third", ticket: 3, lent: false, path: nil), [.discard(ticket: 3)]),
        ]),
        Scenario(name: "closing the fed camera ends the feed: nothing is reclaimed or reopened for it", steps: outerOpensBesideIt + [
            .on(.feed(camera: "outer"), []),
            .on(.close(camera: "outer"), [.retire(camera: "outer")]),
            .on(.tick(loopbackDistinct: true), []),
            .on(.written(shown: "outer"), []),
        ]),
    ]

    @Test(arguments: scenarios) func scenario(_ scenario: Scenario) {
        _ = Self.run(scenario)
    }
}
