"""A fake evdev switch device for umockdev: a UMockdev.IoctlBase answering the EVIOCG* queries
libevdev (inside libinput) makes, from the switches it has. Events are written to the node's pty
(Bed.write_input_events). Reads are left to the pty: the handler answers ioctls only."""

import errno
import struct
import time

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

EV_SYN, EV_SW = 0x00, 0x05
SYN_REPORT = 0
SW_LID, SW_TABLET_MODE = 0x00, 0x01


def bits(numbers, size):
    out = bytearray(size)
    for number in numbers:
        if number // 8 < size:
            out[number // 8] |= 1 << (number % 8)
    return bytes(out)


class SwitchDevice:
    def __init__(self, name, switches, on=()):
        self.name = name
        self.switches = set(switches)
        self.on = set(on)
        self.seen = []
        self.requests = []  # every request number, for debugging a mismatch


class Handler(UMockdev.IoctlBase):
    def __init__(self, device):
        super().__init__()
        self.device = device

    def do_handle_ioctl(self, client):
        request = client.get_request()
        kind, number, size = (request >> 8) & 0xFF, request & 0xFF, (request >> 16) & 0x3FFF
        direction = request >> 30
        self.device.requests.append(request)
        if kind != ord("E"):
            client.complete(-1, errno.ENOTTY)
            return True
        self.device.seen.append(number)
        answer = self.answer(number, size, direction)
        if answer is None:
            client.complete(-1, errno.EINVAL)
            return True
        if direction & 2 and size:  # the kernel writes back into the caller's buffer
            data = client.get_arg().resolve(0, size)
            data.update(0, list(answer[:size].ljust(size, b"\0")))
        client.complete(len(answer) if number in (0x06, 0x07, 0x08) else 0, 0)
        return True

    def answer(self, number, size, direction):
        device = self.device
        if number == 0x01:  # EVIOCGVERSION
            return struct.pack("<i", 0x010001)
        if number == 0x02:  # EVIOCGID: bus host, no vendor
            return struct.pack("<HHHH", 0x19, 0, 0x5, 0)
        if number == 0x06:  # EVIOCGNAME
            return device.name.encode() + b"\0"
        if number == 0x07:  # EVIOCGPHYS
            return b"PNP0C0D/button/input0\0"
        if number == 0x08:  # EVIOCGUNIQ
            return b"\0"
        if number == 0x09:  # EVIOCGPROP
            return bytes(size)
        if number in (0x18, 0x19, 0x1A):  # EVIOCGKEY, EVIOCGLED, EVIOCGSND
            return bytes(size)
        if number == 0x1B:  # EVIOCGSW: current switch states
            return bits(device.on, size)
        if number == 0x20:  # EVIOCGBIT(0): event types
            return bits([EV_SYN, EV_SW], size)
        if number == 0x20 + EV_SW:
            return bits(device.switches, size)
        if number == 0x20 + EV_SYN:
            return bits([SYN_REPORT], size)
        if 0x20 < number < 0x40:  # other EVIOCGBIT types: none
            return bytes(size)
        if number in (0x03,):  # EVIOCGREP: no autorepeat
            return None
        if direction == 1:  # EVIOCSCLOCKID, EVIOCGRAB, EVIOCSMASK ...: accept
            return b""
        return None


def event(type_, code, value):
    now = time.time()
    return struct.pack("<qqHHi", int(now), int((now % 1) * 1e6), type_, code, value)


def switch_events(code, on):
    return event(EV_SW, code, 1 if on else 0) + event(EV_SYN, SYN_REPORT, 0)
