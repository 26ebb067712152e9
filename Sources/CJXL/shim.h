#ifndef CJXL_SHIM_H
#define CJXL_SHIM_H
// libjxl (JPEG XL images), loaded on first use as LibRaw is: linking it would cost every quire
// process its relocation (it brings libstdc++, libbrotli, libhwy, lcms2), so the module map
// links nothing and the entry points are resolved with dlopen/dlsym the first time a JPEG XL
// file is opened. The decoding loop is here, in C, over libjxl's event API: the image's size
// is checked against the caller's pixel limit before any pixel buffer exists.
#include <jxl/decode.h>
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    __typeof__(&JxlDecoderCreate) _Nonnull JxlDecoderCreate;
    __typeof__(&JxlDecoderDestroy) _Nonnull JxlDecoderDestroy;
    __typeof__(&JxlDecoderSubscribeEvents) _Nonnull JxlDecoderSubscribeEvents;
    __typeof__(&JxlDecoderSetInput) _Nonnull JxlDecoderSetInput;
    __typeof__(&JxlDecoderProcessInput) _Nonnull JxlDecoderProcessInput;
    __typeof__(&JxlDecoderGetBasicInfo) _Nonnull JxlDecoderGetBasicInfo;
    __typeof__(&JxlDecoderImageOutBufferSize) _Nonnull JxlDecoderImageOutBufferSize;
    __typeof__(&JxlDecoderSetImageOutBuffer) _Nonnull JxlDecoderSetImageOutBuffer;
} quire_jxl_api;

#define QUIRE_JXL_SYMBOL(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    api.name = (__typeof__(api.name))symbol

/// Loads libjxl.so.0.7 (RTLD_LOCAL) and resolves every entry point once; NULL when the library
/// or a symbol is missing. The result lives for the life of the process.
static inline const quire_jxl_api *_Nullable quire_jxl_api_load(void) {
    static quire_jxl_api api;
    void *library = quire_library_open("libjxl.so.0.7");
    if (!library) return NULL;
    void *symbol;
    QUIRE_JXL_SYMBOL(JxlDecoderCreate);
    QUIRE_JXL_SYMBOL(JxlDecoderDestroy);
    QUIRE_JXL_SYMBOL(JxlDecoderSubscribeEvents);
    QUIRE_JXL_SYMBOL(JxlDecoderSetInput);
    QUIRE_JXL_SYMBOL(JxlDecoderProcessInput);
    QUIRE_JXL_SYMBOL(JxlDecoderGetBasicInfo);
    QUIRE_JXL_SYMBOL(JxlDecoderImageOutBufferSize);
    QUIRE_JXL_SYMBOL(JxlDecoderSetImageOutBuffer);
    return &api;
}

/// What a decode ended with.
typedef enum {
    QUIRE_JXL_OK = 0,
    /// libjxl could not start (memory).
    QUIRE_JXL_NO_DECODER = 1,
    /// The data is not a JPEG XL image, or it is damaged.
    QUIRE_JXL_DAMAGED = 2,
    /// The data ends before the image does.
    QUIRE_JXL_TRUNCATED = 3,
    /// The image is larger than the pixel limit (its size is still given).
    QUIRE_JXL_TOO_LARGE = 4,
    /// No memory for the pixels.
    QUIRE_JXL_NO_MEMORY = 5,
} quire_jxl_status;

/// Decodes the first frame of the JPEG XL image in `data` (a bare codestream or the container)
/// as 8-bit RGBA, unassociated alpha, turned upright as its orientation says (libjxl's default),
/// into a buffer from malloc (`*pixels`, `*width` × `*height` × 4 bytes, rows top to bottom) that
/// the caller frees. With `header_only`, stops once the size is known (no pixels). The size is
/// given (upright) whenever the header was read, also when it is refused as over `max_pixels`.
static inline quire_jxl_status quire_jxl_decode(const quire_jxl_api *_Nonnull api, const uint8_t *_Nonnull data, size_t size,
                                                uint64_t max_pixels, int header_only,
                                                uint32_t *_Nonnull width, uint32_t *_Nonnull height,
                                                uint8_t *_Nullable *_Nonnull pixels) {
    *width = 0; *height = 0; *pixels = NULL;
    JxlDecoder *decoder = api->JxlDecoderCreate(NULL);
    if (!decoder) return QUIRE_JXL_NO_DECODER;
    quire_jxl_status status = QUIRE_JXL_DAMAGED;
    uint8_t *buffer = NULL;
    JxlPixelFormat format = { 4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0 };
    if (api->JxlDecoderSubscribeEvents(decoder, JXL_DEC_BASIC_INFO | JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS
        || api->JxlDecoderSetInput(decoder, data, size) != JXL_DEC_SUCCESS) goto done;
    // The input is not closed: a file that ends early then asks for more (truncated) instead of
    // failing as damaged.
    for (;;) {
        JxlDecoderStatus event = api->JxlDecoderProcessInput(decoder);
        if (event == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo info;
            if (api->JxlDecoderGetBasicInfo(decoder, &info) != JXL_DEC_SUCCESS) goto done;
            int swaps = info.orientation >= JXL_ORIENT_TRANSPOSE;
            *width = swaps ? info.ysize : info.xsize;
            *height = swaps ? info.xsize : info.ysize;
            if (*width == 0 || *height == 0) goto done;
            if ((uint64_t)*width * (uint64_t)*height > max_pixels) { status = QUIRE_JXL_TOO_LARGE; goto done; }
            if (header_only) { status = QUIRE_JXL_OK; goto done; }
        } else if (event == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t needed = 0;
            if (api->JxlDecoderImageOutBufferSize(decoder, &format, &needed) != JXL_DEC_SUCCESS
                || needed != (size_t)*width * (size_t)*height * 4) goto done;
            // calloc: a frame that does not cover every pixel leaves them transparent, never
            // whatever the memory held.
            buffer = calloc(needed, 1);
            if (!buffer) { status = QUIRE_JXL_NO_MEMORY; goto done; }
            if (api->JxlDecoderSetImageOutBuffer(decoder, &format, buffer, needed) != JXL_DEC_SUCCESS) goto done;
        } else if (event == JXL_DEC_FULL_IMAGE) {
            // The first frame (frames are composited: an animation's first picture) is enough.
            if (buffer) { *pixels = buffer; buffer = NULL; status = QUIRE_JXL_OK; }
            goto done;
        } else if (event == JXL_DEC_NEED_MORE_INPUT) {
            status = QUIRE_JXL_TRUNCATED;
            goto done;
        } else {
            // JXL_DEC_ERROR, or JXL_DEC_SUCCESS before any image.
            goto done;
        }
    }
done:
    free(buffer);
    api->JxlDecoderDestroy(decoder);
    return status;
}
#endif
