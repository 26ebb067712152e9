#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
// zlib, for inflating a PDF image stream row by row (QuireRender's FlateImageDownscaler).
// libz is already mapped by every quire process (libpng needs it), so linking it costs nothing.
#include <zlib.h>

/// A raw deflate stream (no zlib header or Adler-32 trailer): the caller checks the header.
static inline int quire_inflate_init_raw(z_stream *_Nonnull stream) {
    return inflateInit2(stream, -15);
}
#endif
