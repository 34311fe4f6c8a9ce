// The V4L2 streaming interface the virtual camera producer uses: mmap capture from a camera and
// frame output to a v4l2loopback device. Plain kernel ioctls (no libv4l2 conversion layer, so
// frames stay zero-copy until the producer's single copy). _IOWR requests re-exported.
#ifndef FOLDCAM_CVIDEOSTREAMING_H
#define FOLDCAM_CVIDEOSTREAMING_H

#include <linux/videodev2.h>
#include <sys/mman.h>
#include <poll.h>

static const unsigned long cvs_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long cvs_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long cvs_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long cvs_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long cvs_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long cvs_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long cvs_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long cvs_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long cvs_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long cvs_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long cvs_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
static const unsigned long cvs_VIDIOC_S_CTRL = VIDIOC_S_CTRL;

static const unsigned int cvs_BUF_TYPE_VIDEO_CAPTURE = V4L2_BUF_TYPE_VIDEO_CAPTURE;
static const unsigned int cvs_BUF_TYPE_VIDEO_OUTPUT = V4L2_BUF_TYPE_VIDEO_OUTPUT;
static const unsigned int cvs_MEMORY_MMAP = V4L2_MEMORY_MMAP;
static const unsigned int cvs_FIELD_NONE = V4L2_FIELD_NONE;
static const unsigned int cvs_COLORSPACE_SRGB = V4L2_COLORSPACE_SRGB;
static const unsigned int cvs_PIX_FMT_NV12 = V4L2_PIX_FMT_NV12;
static const unsigned int cvs_PIX_FMT_YUYV = V4L2_PIX_FMT_YUYV;
static const unsigned int cvs_CAP_VIDEO_CAPTURE = V4L2_CAP_VIDEO_CAPTURE;
static const unsigned int cvs_CAP_VIDEO_OUTPUT = V4L2_CAP_VIDEO_OUTPUT;
static const unsigned int cvs_CAP_STREAMING = V4L2_CAP_STREAMING;
static const unsigned int cvs_CAP_DEVICE_CAPS = V4L2_CAP_DEVICE_CAPS;
static const unsigned int cvs_CTRL_FLAG_NEXT_CTRL = V4L2_CTRL_FLAG_NEXT_CTRL;
static const unsigned int cvs_CTRL_FLAG_DISABLED = V4L2_CTRL_FLAG_DISABLED;
static const unsigned int cvs_CID_HFLIP = V4L2_CID_HFLIP;
static const unsigned int cvs_CID_VFLIP = V4L2_CID_VFLIP;
static const short cvs_POLLIN = POLLIN;
static const short cvs_POLLERR = POLLERR;
static const short cvs_POLLHUP = POLLHUP;
static const int cvs_PROT_READ = PROT_READ;
static const int cvs_PROT_WRITE = PROT_WRITE;
static const int cvs_MAP_SHARED = MAP_SHARED;

#endif
