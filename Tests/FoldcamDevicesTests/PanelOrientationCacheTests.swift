@testable import FoldcamDevices
import Testing

/// Panel orientations asked once per card appearance, not on every uevent.
@Suite struct PanelOrientationCacheTests {
    let card0 = PanelOrientationCache.Card(sysname: "card0", syspath: "/sys/devices/pci0000:00/0000:00:02.0/drm/card0", device: 226 << 8)

    @Test func aCardIsAskedOnceWhileItStays() {
        var cache = PanelOrientationCache()
        #expect(cache.needsReading(card0))
        cache.store(["eDP-1": 270], for: card0)
        for _ in 0..<3 {
            cache.keep(only: [card0])
            #expect(!cache.needsReading(card0))
        }
        #expect(cache.orientations(of: "card0") == ["eDP-1": 270])
        #expect(cache.orientations(of: "card1") == [:])
    }

    @Test func aCardThatFailedIsNotAskedAgainUntilItReappears() {
        var cache = PanelOrientationCache()
        cache.store([:], for: card0)
        #expect(!cache.needsReading(card0))
        #expect(cache.orientations(of: "card0") == [:])
    }

    @Test func aCardGoneIsAskedAgainWhenItComesBack() {
        var cache = PanelOrientationCache()
        cache.store(["eDP-1": 90], for: card0)
        cache.keep(only: [])
        #expect(cache.needsReading(card0))
        #expect(cache.orientations(of: "card0") == [:])
        #expect(cache.count == 0)
    }

    @Test func aRemoveEventForgetsTheCardEvenIfItIsBackBeforeTheScan() {
        var cache = PanelOrientationCache()
        let card1 = PanelOrientationCache.Card(sysname: "card1", syspath: "/sys/devices/platform/vkms/drm/card1", device: 226 << 8 | 1)
        cache.store(["eDP-1": 90], for: card0)
        cache.store([:], for: card1)
        cache.forget(sysname: "card0")
        #expect(cache.needsReading(card0))
        #expect(!cache.needsReading(card1))
    }

    @Test func anotherGPUTakingTheNumberIsANewCard() {
        var cache = PanelOrientationCache()
        cache.store(["DSI-1": 90], for: card0)
        var other = card0
        other.syspath = "/sys/devices/pci0000:00/0000:00:03.0/drm/card0"
        #expect(cache.needsReading(other))
        var renumbered = card0
        renumbered.device = 226 << 8 | 3
        #expect(cache.needsReading(renumbered))
        cache.keep(only: [other])
        cache.store([:], for: other)
        #expect(cache.orientations(of: "card0") == [:])
    }
}
