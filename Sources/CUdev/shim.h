// libudev for FoldcamDevices. Only the library header; libudev has no macros foldcam needs.
#ifndef FOLDCAM_CUDEV_H
#define FOLDCAM_CUDEV_H

#include <libudev.h>

#endif
