-- foldcam-pipewire: hide foldcam's own v4l2loopback output from WirePlumber 0.4's V4L2 monitor,
-- so that foldcam's virtual camera is listed once in PipeWire, as foldcam-pipewire's node, and
-- not a second time as a V4L2 camera (docs/pipewire.md). WirePlumber 0.5 reads
-- wireplumber.conf.d/51-foldcam-hide-loopback.conf instead; both match the same devices.
--
-- Matched: a v4l2loopback device (bus "platform:v4l2loopback-NNN") whose card label is
-- "foldcam" or starts with "foldcam " (v4l2loopback's card_label, foldcam.json's loopbackLabel),
-- the devices udev-rules/70-foldcam.rules tags as foldcam's own. Other loopbacks and every real
-- camera stay. Applications that open /dev/videoN directly still see the loopback.
--
-- To keep the node listed, put an empty file of this name in ~/.config/wireplumber/main.lua.d/
-- or /etc/wireplumber/main.lua.d/ (it replaces this one).
--
-- Appended to the rules 50-v4l2-config.lua sets (files load in name order).
if v4l2_monitor ~= nil and v4l2_monitor.rules ~= nil then
  table.insert(v4l2_monitor.rules, {
    matches = {
      {
        { "api.v4l2.cap.bus_info", "matches", "platform:v4l2loopback-*" },
        { "api.v4l2.cap.card", "equals", "foldcam" },
      },
      {
        { "api.v4l2.cap.bus_info", "matches", "platform:v4l2loopback-*" },
        { "api.v4l2.cap.card", "matches", "foldcam *" },
      },
    },
    apply_properties = {
      ["node.disabled"] = true,
    },
  })
end
