// libjpeg-turbo's TurboJPEG API (libturbojpeg0-dev), for decoding MJPG cameras' frames.
#ifndef FOLDCAM_CTURBOJPEG_H
#define FOLDCAM_CTURBOJPEG_H
#include <turbojpeg.h>

static const int ctj_SAMP_444 = TJSAMP_444;
static const int ctj_SAMP_422 = TJSAMP_422;
static const int ctj_SAMP_420 = TJSAMP_420;
static const int ctj_SAMP_GRAY = TJSAMP_GRAY;
// tjGetErrorCode: a warning means the frame was decoded whole despite damaged data.
static const int ctj_ERR_WARNING = TJERR_WARNING;

// Nothing links libturbojpeg: FoldcamCapture loads it with dlopen when a virtual camera must
// decode MJPG (LibTurboJPEG.swift), so the daemon starts on a machine without it. The type of
// each function looked up with dlsym, from its declaration; __typeof__ references no symbol.
typedef __typeof__(&tjInitDecompress) ctj_init_decompress_fn;
typedef __typeof__(&tjDecompressHeader3) ctj_decompress_header3_fn;
typedef __typeof__(&tjDecompressToYUVPlanes) ctj_decompress_to_yuv_planes_fn;
typedef __typeof__(&tjPlaneWidth) ctj_plane_width_fn;
typedef __typeof__(&tjPlaneHeight) ctj_plane_height_fn;
typedef __typeof__(&tjGetErrorStr2) ctj_get_error_str2_fn;
typedef __typeof__(&tjGetErrorCode) ctj_get_error_code_fn;
typedef __typeof__(&tjDestroy) ctj_destroy_fn;
#endif
