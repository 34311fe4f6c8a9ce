// See include/foldcam_frame_convert.h. Built with -O2 even in debug builds (Package.swift): the
// e2e guest runs the debug companion, and an unoptimised loop over every pixel would not keep
// up with the camera there.
#include "foldcam_frame_convert.h"

#include <string.h>

uint32_t ffc_bytes_per_pixel(ffc_layout layout) { return layout == FFC_YUYV ? 2 : 3; }

// BT.601 limited range in 8-bit fixed point (coefficients x256, rounded): Y 16-235, Cb/Cr
// 16-240. Chroma is computed from the sum of a pair's two pixels (hence x128 and the shift by 9).
static inline uint8_t luma(int r, int g, int b) { return (uint8_t)(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16); }
static inline uint8_t cb(int r2, int g2, int b2) { return (uint8_t)(((-38 * r2 - 74 * g2 + 112 * b2 + 256) >> 9) + 128); }
static inline uint8_t cr(int r2, int g2, int b2) { return (uint8_t)(((112 * r2 - 94 * g2 - 18 * b2 + 256) >> 9) + 128); }

static void rgb_row(const uint8_t *from, uint8_t *to, uint32_t width, int red, int blue) {
    for (uint32_t x = 0; x + 1 < width; x += 2, from += 6, to += 4) {
        int r0 = from[red], g0 = from[1], b0 = from[blue];
        int r1 = from[3 + red], g1 = from[4], b1 = from[3 + blue];
        to[0] = luma(r0, g0, b0);
        to[1] = cb(r0 + r1, g0 + g1, b0 + b1);
        to[2] = luma(r1, g1, b1);
        to[3] = cr(r0 + r1, g0 + g1, b0 + b1);
    }
}

static void black_row(uint8_t *to, uint32_t pixels) {
    for (uint32_t x = 0; x + 1 < pixels; x += 2, to += 4) {
        to[0] = 16;
        to[1] = 128;
        to[2] = 16;
        to[3] = 128;
    }
}

void ffc_black_yuyv(uint8_t *to, size_t to_stride, uint32_t width, uint32_t rows) {
    for (uint32_t y = 0; y < rows; y++, to += to_stride) black_row(to, width);
}

void ffc_to_yuyv(ffc_layout layout, const uint8_t *from, size_t from_stride, uint32_t from_width, uint8_t *to,
                 size_t to_stride, uint32_t width, uint32_t rows) {
    uint32_t pixels = (from_width < width ? from_width : width) & ~1u;
    if (layout == FFC_YUYV && pixels == width && from_stride == to_stride) {
        memcpy(to, from, to_stride * rows);
        return;
    }
    for (uint32_t y = 0; y < rows; y++, from += from_stride, to += to_stride) {
        switch (layout) {
        case FFC_YUYV: memcpy(to, from, (size_t)pixels * 2); break;
        case FFC_RGB24: rgb_row(from, to, pixels, 0, 2); break;
        case FFC_BGR24: rgb_row(from, to, pixels, 2, 0); break;
        }
        if (pixels < width) black_row(to + (size_t)pixels * 2, width - pixels);
    }
}
