// libpng's simplified API (png_image_*): no setjmp/longjmp error handling, which Swift cannot
// use. Macros re-exported with a prefix.
#ifndef FOLDCAM_CPNG_H
#define FOLDCAM_CPNG_H
#include <png.h>

static const unsigned int cpng_IMAGE_VERSION = PNG_IMAGE_VERSION;
static const unsigned int cpng_FORMAT_RGB = PNG_FORMAT_RGB;
#endif
