// The V4L2 UAPI and libv4l2, for FoldcamV4L2 and the modules built on it (FoldcamDevices probes
// through libv4l2, which works around driver quirks; FoldcamCapture streams with plain kernel
// ioctls, so frames stay zero-copy). The VIDIOC_* requests expand through _IOWR and sizeof,
// which Swift cannot import: they are re-exported here as prefixed constants. No other code.
#ifndef FOLDCAM_CV4L2_H
#define FOLDCAM_CV4L2_H

#include <linux/videodev2.h>
#include <linux/media.h>
#include <libv4l2.h>

// Nothing links libv4l2: FoldcamV4L2 loads it with dlopen when a node is first probed
// (LibV4L2.swift), so a daemon that never probes (simulate mode) does not map it, nor
// libv4lconvert and libjpeg behind it. Each wrapper calls the function found by dlsym through
// its declared type, variadic as declared (Swift cannot call variadic functions), and
// __typeof__ references no symbol, so nothing needs libv4l2 at link time.
static inline int cv4l2_open(const void *function, const char *path, int flags) {
    return ((__typeof__(&v4l2_open))function)(path, flags);
}
static inline int cv4l2_ioctl(const void *function, int fd, unsigned long request, void *argument) {
    return ((__typeof__(&v4l2_ioctl))function)(fd, request, argument);
}
static inline int cv4l2_close(const void *function, int fd) {
    return ((__typeof__(&v4l2_close))function)(fd);
}

static const unsigned long cv4l2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long cv4l2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long cv4l2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long cv4l2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long cv4l2_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
static const unsigned long cv4l2_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
static const unsigned long cv4l2_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
static const unsigned long cv4l2_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long cv4l2_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long cv4l2_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long cv4l2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long cv4l2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long cv4l2_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long cv4l2_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long cv4l2_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long cv4l2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long cv4l2_VIDIOC_SUBSCRIBE_EVENT = VIDIOC_SUBSCRIBE_EVENT;
static const unsigned long cv4l2_VIDIOC_DQEVENT = VIDIOC_DQEVENT;
static const unsigned int cv4l2_EVENT_PRIVATE_START = V4L2_EVENT_PRIVATE_START;
static const unsigned int cv4l2_EVENT_SUB_FL_SEND_INITIAL = V4L2_EVENT_SUB_FL_SEND_INITIAL;

static const unsigned int cv4l2_CID_CAMERA_ORIENTATION = V4L2_CID_CAMERA_ORIENTATION;
static const unsigned int cv4l2_CID_CAMERA_SENSOR_ROTATION = V4L2_CID_CAMERA_SENSOR_ROTATION;
static const unsigned int cv4l2_CID_HFLIP = V4L2_CID_HFLIP;
static const unsigned int cv4l2_CID_VFLIP = V4L2_CID_VFLIP;
static const unsigned int cv4l2_CID_ROTATE = V4L2_CID_ROTATE;

static const unsigned int cv4l2_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
static const unsigned int cv4l2_CAP_VIDEO_CAPTURE_MPLANE = V4L2_CAP_VIDEO_CAPTURE_MPLANE;
static const unsigned int cv4l2_CAP_VIDEO_OUTPUT = V4L2_CAP_VIDEO_OUTPUT;
static const unsigned int cv4l2_CAP_VIDEO_OUTPUT_MPLANE = V4L2_CAP_VIDEO_OUTPUT_MPLANE;
static const unsigned int cv4l2_CAP_VIDEO_M2M = V4L2_CAP_VIDEO_M2M;
static const unsigned int cv4l2_CAP_VIDEO_M2M_MPLANE = V4L2_CAP_VIDEO_M2M_MPLANE;
static const unsigned int cv4l2_CAP_META_CAPTURE = V4L2_CAP_META_CAPTURE;
static const unsigned int cv4l2_CAP_STREAMING = V4L2_CAP_STREAMING;
static const unsigned int cv4l2_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;

static const unsigned int cv4l2_BUF_TYPE_VIDEO_CAPTURE = V4L2_BUF_TYPE_VIDEO_CAPTURE;
static const unsigned int cv4l2_BUF_TYPE_VIDEO_CAPTURE_MPLANE = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
static const unsigned int cv4l2_BUF_TYPE_VIDEO_OUTPUT = V4L2_BUF_TYPE_VIDEO_OUTPUT;
static const unsigned int cv4l2_MEMORY_MMAP = V4L2_MEMORY_MMAP;
static const unsigned int cv4l2_MEMORY_USERPTR = V4L2_MEMORY_USERPTR;
static const unsigned int cv4l2_FIELD_NONE = V4L2_FIELD_NONE;
static const unsigned int cv4l2_COLORSPACE_SRGB = V4L2_COLORSPACE_SRGB;
static const unsigned int cv4l2_FRMSIZE_TYPE_DISCRETE = V4L2_FRMSIZE_TYPE_DISCRETE;
static const unsigned int cv4l2_FRMIVAL_TYPE_DISCRETE = V4L2_FRMIVAL_TYPE_DISCRETE;
static const unsigned int cv4l2_CTRL_FLAG_DISABLED = V4L2_CTRL_FLAG_DISABLED;
static const unsigned int cv4l2_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL;
// libv4l2 adds converted formats (RGB3 from YUYV ...); foldcam lists only what the device has.
static const unsigned int cv4l2_FMT_FLAG_EMULATED = V4L2_FMT_FLAG_EMULATED;

// The media controller (linux/media.h): which sensor sub-device feeds a capture node.
static const unsigned long cv4l2_MEDIA_IOC_G_TOPOLOGY = MEDIA_IOC_G_TOPOLOGY;
static const unsigned int cv4l2_MEDIA_ENT_F_CAM_SENSOR = MEDIA_ENT_F_CAM_SENSOR;
static const unsigned int cv4l2_MEDIA_INTF_T_V4L_VIDEO = MEDIA_INTF_T_V4L_VIDEO;
static const unsigned int cv4l2_MEDIA_INTF_T_V4L_SUBDEV = MEDIA_INTF_T_V4L_SUBDEV;
static const unsigned int cv4l2_MEDIA_LNK_FL_ENABLED = MEDIA_LNK_FL_ENABLED;
static const unsigned int cv4l2_MEDIA_LNK_FL_LINK_TYPE = MEDIA_LNK_FL_LINK_TYPE;
static const unsigned int cv4l2_MEDIA_LNK_FL_DATA_LINK = MEDIA_LNK_FL_DATA_LINK;
static const unsigned int cv4l2_MEDIA_LNK_FL_INTERFACE_LINK = MEDIA_LNK_FL_INTERFACE_LINK;
static const unsigned int cv4l2_MEDIA_PAD_FL_SINK = MEDIA_PAD_FL_SINK;
static const unsigned int cv4l2_MEDIA_PAD_FL_SOURCE = MEDIA_PAD_FL_SOURCE;

#endif
