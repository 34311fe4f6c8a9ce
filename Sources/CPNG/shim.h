// libpng's simplified API (png_image_*): no setjmp/longjmp error handling, which Swift cannot
// use. Macros re-exported with a prefix.
#ifndef FOLDCAM_CPNG_H
#define FOLDCAM_CPNG_H
#include <png.h>

static const unsigned int cpng_IMAGE_VERSION = PNG_IMAGE_VERSION;
static const unsigned int cpng_FORMAT_RGB = PNG_FORMAT_RGB;

// Nothing links libpng: FoldcamCapture loads it with dlopen at the first snapshot
// (LibPNG.swift), so a daemon nobody asks for a PNG does not map it, nor zlib. The type of each
// function looked up with dlsym, from its declaration; __typeof__ references no symbol.
typedef __typeof__(&png_image_write_to_memory) cpng_image_write_to_memory_fn;
typedef __typeof__(&png_image_free) cpng_image_free_fn;
#endif
