"""A fake V4L2 camera for umockdev: a UMockdev.IoctlBase that answers the ioctls foldcam (and
libv4l2 underneath it) sends, from a plain Python description of the camera.

Struct layouts are the x86_64/aarch64 kernel UAPI ones (linux/videodev2.h); sizes come from the
request number itself, so a layout mistake shows up as a wrong answer, not a crash."""

import errno
import struct

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

# ioctl numbers by their 'V' sequence number (the size is in the request).
QUERYCAP, ENUM_FMT, G_FMT, G_PARM, G_CTRL, QUERYCTRL, ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS = 0, 2, 4, 21, 27, 36, 74, 75
NAMES = {QUERYCAP: "VIDIOC_QUERYCAP", ENUM_FMT: "VIDIOC_ENUM_FMT", G_FMT: "VIDIOC_G_FMT", G_PARM: "VIDIOC_G_PARM",
         G_CTRL: "VIDIOC_G_CTRL", QUERYCTRL: "VIDIOC_QUERYCTRL", ENUM_FRAMESIZES: "VIDIOC_ENUM_FRAMESIZES",
         ENUM_FRAMEINTERVALS: "VIDIOC_ENUM_FRAMEINTERVALS"}

CAP_VIDEO_CAPTURE, CAP_VIDEO_OUTPUT, CAP_META_CAPTURE, CAP_STREAMING, CAP_DEVICE_CAPS = 0x1, 0x2, 0x00800000, 0x04000000, 0x80000000
CID_HFLIP, CID_VFLIP, CID_ROTATE = 0x00980914, 0x00980915, 0x00980922
CID_CAMERA_ORIENTATION, CID_CAMERA_SENSOR_ROTATION = 0x009A0922, 0x009A0923
CTRL_FLAG_NEXT_CTRL = 0x80000000
CONTROL_NAMES = {CID_HFLIP: b"Horizontal Flip", CID_VFLIP: b"Vertical Flip", CID_ROTATE: b"Rotate",
                 CID_CAMERA_ORIENTATION: b"Camera Orientation", CID_CAMERA_SENSOR_ROTATION: b"Camera Sensor Rotation"}
FRMSIZE_TYPE_DISCRETE = FRMIVAL_TYPE_DISCRETE = 1


def fourcc(text):
    return struct.unpack("<I", text.encode("ascii"))[0]


class Camera:
    """What one node says. formats: {"YUYV": [(w, h, [fps, ...]), ...]}; controls: {cid: value}.
    fail: {ioctl sequence number: errno} makes that ioctl fail (EBUSY, ENODEV, ...);
    garbage: a set of sequence numbers answered with nonsense."""

    def __init__(self, card, driver="mockcam", bus="platform:mock", caps=CAP_VIDEO_CAPTURE | CAP_STREAMING,
                 formats=None, controls=None, fail=None, garbage=None):
        self.card, self.driver, self.bus, self.caps = card, driver, bus, caps
        self.formats = formats if formats is not None else {"YUYV": [(1280, 720, [30])]}
        self.controls = controls or {}
        self.fail = fail or {}
        self.garbage = garbage or set()
        self.seen = []  # ioctl names in order, for checks
        self.on_fail = None  # called before a failure is answered (e.g. to unplug the device)


class Handler(UMockdev.IoctlBase):
    def __init__(self, camera):
        super().__init__()
        self.camera = camera

    def do_handle_ioctl(self, client):
        request = client.get_request()
        kind, number, size = (request >> 8) & 0xFF, request & 0xFF, (request >> 16) & 0x3FFF
        if kind != ord("V") or size == 0:
            client.complete(-1, errno.ENOTTY)
            return True
        camera = self.camera
        camera.seen.append(NAMES.get(number, "V%d" % number))
        if number in camera.fail:
            if camera.on_fail:
                camera.on_fail()
            client.complete(-1, camera.fail[number])
            return True
        data = client.get_arg().resolve(0, size)
        buffer = bytearray(bytes(data.retrieve()))
        result = self.answer(number, buffer)
        if result is None:
            client.complete(-1, errno.EINVAL)
            return True
        if result == "ENOTTY":
            client.complete(-1, errno.ENOTTY)
            return True
        data.update(0, list(result))
        client.complete(0, 0)
        return True

    def answer(self, number, buffer):
        camera = self.camera
        garbage = number in camera.garbage
        if number == QUERYCAP:
            caps = camera.caps | CAP_DEVICE_CAPS
            name = camera.card.encode()[:32].ljust(32, b"\0") if not garbage else b"\xff" * 32
            return struct.pack("<16s32s32sIII12x", camera.driver.encode(), name, camera.bus.encode(), 0x060100, caps, camera.caps)
        if number == ENUM_FMT:
            index, buffer_type = struct.unpack_from("<II", buffer)
            names = list(camera.formats)
            if index >= len(names) or buffer_type != 1:
                return None
            code = 0x01020304 if garbage else fourcc(names[index])
            return struct.pack("<III32sII12x", index, buffer_type, 0, names[index].encode(), code, 0)
        if number == ENUM_FRAMESIZES:
            index, code = struct.unpack_from("<II", buffer)
            sizes = self.sizes(code)
            if sizes is None or index >= len(sizes):
                return None
            width, height = (0, 0) if garbage else sizes[index][:2]
            return struct.pack("<IIIII16x8x", index, code, FRMSIZE_TYPE_DISCRETE, width, height)
        if number == ENUM_FRAMEINTERVALS:
            index, code, width, height = struct.unpack_from("<IIII", buffer)
            rates = next((s[2] for s in (self.sizes(code) or []) if s[0] == width and s[1] == height), None)
            if rates is None or index >= len(rates):
                return None
            return struct.pack("<IIIIIII16x8x", index, code, width, height, FRMIVAL_TYPE_DISCRETE, 1, rates[index])
        if number == QUERYCTRL:
            (cid,) = struct.unpack_from("<I", buffer)
            if cid & CTRL_FLAG_NEXT_CTRL:
                # The next control after the id given (enumeration, as `foldcamctl report` does).
                following = sorted(c for c in camera.controls if c > cid & 0x0FFFFFFF)
                if not following:
                    return None
                cid = following[0]
            if cid not in camera.controls:
                return None
            return struct.pack("<II32siiiiI8x", cid, 1, CONTROL_NAMES.get(cid, b"ctrl"), 0, 360, 1, 0, 0)
        if number == G_CTRL:
            (cid,) = struct.unpack_from("<I", buffer)
            if cid not in camera.controls:
                return None
            return struct.pack("<Ii", cid, camera.controls[cid])
        if number == G_FMT:
            # libv4l2's v4l2_open asks for the current format; answer the first mode.
            name = next(iter(camera.formats), "YUYV")
            width, height = camera.formats[name][0][:2] if camera.formats.get(name) else (640, 480)
            out = bytearray(len(buffer))
            struct.pack_into("<I4xIIII", out, 0, 1, width, height, fourcc(name), 1)
            return bytes(out)
        return "ENOTTY"

    def sizes(self, code):
        for name, sizes in self.camera.formats.items():
            if fourcc(name) == code:
                return sizes
        return None
