// The PipeWire companion's one copy of each frame, from a camera node's buffer into its YUYV
// node's buffer: a plain row copy when the camera delivers YUYV, else RGB or BGR (24 bits a
// pixel, what libcamera's vimc and many ISPs deliver) converted to YUYV on the way. Pure: no
// PipeWire, no allocation, so it is unit-tested on its own (FoldcamPipeWireTests).
#ifndef FOLDCAM_FRAME_CONVERT_H
#define FOLDCAM_FRAME_CONVERT_H

#include <stddef.h>
#include <stdint.h>

/// How a camera's pixels lie in memory.
typedef enum {
    FFC_YUYV = 0,  // Y0 U Y1 V: the node's own layout, copied as it is
    FFC_RGB24 = 1, // R G B (SPA_VIDEO_FORMAT_RGB, V4L2 RGB24)
    FFC_BGR24 = 2, // B G R (SPA_VIDEO_FORMAT_BGR, V4L2 BGR24)
} ffc_layout;

/// Bytes a pixel of `layout` takes (2 for YUYV, 3 for RGB and BGR).
uint32_t ffc_bytes_per_pixel(ffc_layout layout);

/// Writes `rows` rows of `width` pixels (even) as YUYV at `to` (`to_stride` bytes a row), read
/// from `from` (`from_stride` bytes a row, `from_width` pixels in each) in `layout`. RGB and BGR
/// become BT.601 limited-range YCbCr (V4L2 capture's default, FoldcamVideo's YUV), each pair's
/// chroma from the mean of its two pixels. A source narrower than `width` (libcamera's vimc
/// delivers 636 of 640 asked for) fills the left of each row; the rest of the row is black.
/// Only the bytes of `width` pixels in each row are written.
void ffc_to_yuyv(ffc_layout layout, const uint8_t *from, size_t from_stride, uint32_t from_width, uint8_t *to,
                 size_t to_stride, uint32_t width, uint32_t rows);

/// Paints `rows` rows of `width` pixels black (Y 16, Cb and Cr 128) in YUYV.
void ffc_black_yuyv(uint8_t *to, size_t to_stride, uint32_t width, uint32_t rows);

#endif
