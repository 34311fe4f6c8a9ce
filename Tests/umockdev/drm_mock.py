"""A fake DRM card for umockdev: a UMockdev.IoctlBase answering the KMS getters foldcamd uses to
read a connector's `panel orientation` (DRM_IOCTL_MODE_GETRESOURCES, GETCONNECTOR, GETPROPERTY).
Layouts are the kernel UAPI's (include/uapi/drm/drm_mode.h); arrays the caller points to are
written through umockdev's pointer resolution, as the kernel's copy_to_user would."""

import errno
import struct

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

GETRESOURCES, GETCONNECTOR, GETPROPERTY = 0xA0, 0xA7, 0xAA
DROP_MASTER = 0x1F  # _IO('d', 0x1f): no argument
CONNECTOR_TYPES = {"eDP": 14, "DSI": 16, "HDMI-A": 11}
PROP_ENUM = 1 << 3
ORIENTATION_ID = 40
ORIENTATIONS = ["Normal", "Upside Down", "Left Side Up", "Right Side Up"]  # the kernel's enum order


class Card:
    """connectors: [(connector id, "eDP-1", orientation name or None)]."""

    def __init__(self, connectors):
        self.connectors = connectors
        self.seen = []
        self.probed = False  # a GETCONNECTOR with count_modes 0 would make the kernel probe
        # Whether the next opener is DRM master, as the kernel makes a card's first opener when
        # none holds it (umockdev shows no opens: a test sets it before the opener runs).
        self.master = False


class Handler(UMockdev.IoctlBase):
    def __init__(self, card):
        super().__init__()
        self.card = card

    def do_handle_ioctl(self, client):
        request = client.get_request()
        kind, number, size = (request >> 8) & 0xFF, request & 0xFF, (request >> 16) & 0x3FFF
        if kind == ord("d") and number == DROP_MASTER and size == 0:
            self.card.seen.append(number)
            was_master, self.card.master = self.card.master, False
            client.complete(0 if was_master else -1, 0 if was_master else errno.EINVAL)
            return True
        if kind != ord("d") or number not in (GETRESOURCES, GETCONNECTOR, GETPROPERTY):
            client.complete(-1, errno.ENOTTY)
            return True
        self.card.seen.append(number)
        data = client.get_arg().resolve(0, size)
        buffer = bytearray(bytes(data.retrieve()))
        result = {GETRESOURCES: self.resources, GETCONNECTOR: self.connector, GETPROPERTY: self.property}[number](data, buffer)
        if result is None:
            client.complete(-1, errno.ENOENT)
            return True
        data.update(0, list(result))
        client.complete(0, 0)
        return True

    @staticmethod
    def write_array(data, offset, count, fmt, values):
        """Fills the array the u64 at `offset` points to, up to `count` entries."""
        pointer = struct.unpack_from("<Q", bytes(data.retrieve()), offset)[0]
        values = values[:count]
        if pointer and values:
            target = data.resolve(offset, struct.calcsize(fmt) * len(values))
            target.update(0, list(b"".join(struct.pack(fmt, *(v if isinstance(v, tuple) else (v,))) for v in values)))

    def resources(self, data, buffer):
        ids = [c[0] for c in self.card.connectors]
        (count,) = struct.unpack_from("<I", buffer, 40)
        self.write_array(data, 16, count, "<I", ids)
        buffer = bytearray(bytes(data.retrieve()))
        struct.pack_into("<I", buffer, 40, len(ids))
        return bytes(buffer)

    def connector(self, data, buffer):
        count_modes, count_props = struct.unpack_from("<II", buffer, 32)
        (wanted,) = struct.unpack_from("<I", buffer, 48)
        entry = next((c for c in self.card.connectors if c[0] == wanted), None)
        if entry is None:
            return None
        if count_modes == 0:
            self.card.probed = True
        _, name, orientation = entry
        kind, number = name.rsplit("-", 1)
        props = [(ORIENTATION_ID, ORIENTATIONS.index(orientation))] if orientation else []
        props = [(2, 0)] + props  # "DPMS" first, as the kernel lists it
        self.write_array(data, 16, count_props, "<I", [p[0] for p in props])
        self.write_array(data, 24, count_props, "<Q", [p[1] for p in props])
        buffer = bytearray(bytes(data.retrieve()))
        struct.pack_into("<III", buffer, 32, 0, len(props), 0)
        struct.pack_into("<IIIII", buffer, 44, 0, wanted, CONNECTOR_TYPES[kind], int(number), 1)
        return bytes(buffer)

    def property(self, data, buffer):
        (prop_id,) = struct.unpack_from("<I", buffer, 16)
        count_values, count_enums = struct.unpack_from("<II", buffer, 56)
        if prop_id == ORIENTATION_ID:
            name, enums = "panel orientation", [(i, n.encode().ljust(32, b"\0")) for i, n in enumerate(ORIENTATIONS)]
        elif prop_id == 2:
            name, enums = "DPMS", [(i, n.encode().ljust(32, b"\0")) for i, n in enumerate(["On", "Standby", "Suspend", "Off"])]
        else:
            return None
        self.write_array(data, 0, count_values, "<Q", [e[0] for e in enums])
        self.write_array(data, 8, count_enums, "<Q32s", enums)
        buffer = bytearray(bytes(data.retrieve()))
        struct.pack_into("<I32sII", buffer, 20, PROP_ENUM, name.encode().ljust(32, b"\0"), len(enums), len(enums))
        return bytes(buffer)
