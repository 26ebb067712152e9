#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
// zlib, for inflating a PDF image stream row by row (QuireRender's FlateImageDownscaler).
// libz is already mapped by every quire process (libpng needs it), so linking it costs nothing.
#include <zlib.h>

/// inflateInit is a macro; Swift cannot call it.
static inline int quire_inflate_init(z_stream *_Nonnull stream) {
    return inflateInit(stream);
}
#endif
