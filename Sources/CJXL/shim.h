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
#include <string.h>

typedef struct {
    __typeof__(&JxlDecoderCreate) _Nonnull JxlDecoderCreate;
    __typeof__(&JxlDecoderDestroy) _Nonnull JxlDecoderDestroy;
    __typeof__(&JxlDecoderSubscribeEvents) _Nonnull JxlDecoderSubscribeEvents;
    __typeof__(&JxlDecoderSetInput) _Nonnull JxlDecoderSetInput;
    __typeof__(&JxlDecoderProcessInput) _Nonnull JxlDecoderProcessInput;
    __typeof__(&JxlDecoderGetBasicInfo) _Nonnull JxlDecoderGetBasicInfo;
    __typeof__(&JxlDecoderImageOutBufferSize) _Nonnull JxlDecoderImageOutBufferSize;
    __typeof__(&JxlDecoderSetImageOutBuffer) _Nonnull JxlDecoderSetImageOutBuffer;
    __typeof__(&JxlDecoderGetFrameHeader) _Nonnull JxlDecoderGetFrameHeader;
    __typeof__(&JxlDecoderCloseInput) _Nonnull JxlDecoderCloseInput;
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
    QUIRE_JXL_SYMBOL(JxlDecoderGetFrameHeader);
    QUIRE_JXL_SYMBOL(JxlDecoderCloseInput);
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
/// An animated JPEG XL image's frames as it shows them (libjxl composites each displayed frame
/// onto the canvas, its default): `*frames` counted (at most `capacity` + 1, then it stops),
/// each one's duration in milliseconds in `durations` (the first `capacity`), and the loop
/// count the file asks for (`*loops`: 0 forever, else the plays in all). No pixel is decoded:
/// only frame headers are read. `*animated` is 0 for a still image (and nothing else is set).
static inline quire_jxl_status quire_jxl_animation(const quire_jxl_api *_Nonnull api, const uint8_t *_Nonnull data, size_t size,
                                                   uint32_t *_Nonnull durations, uint32_t capacity, uint32_t *_Nonnull frames,
                                                   uint32_t *_Nonnull loops, int *_Nonnull animated) {
    *frames = 0; *loops = 0; *animated = 0;
    JxlDecoder *decoder = api->JxlDecoderCreate(NULL);
    if (!decoder) return QUIRE_JXL_NO_DECODER;
    quire_jxl_status status = QUIRE_JXL_DAMAGED;
    double tick_ms = 0;
    if (api->JxlDecoderSubscribeEvents(decoder, JXL_DEC_BASIC_INFO | JXL_DEC_FRAME) != JXL_DEC_SUCCESS
        || api->JxlDecoderSetInput(decoder, data, size) != JXL_DEC_SUCCESS) goto done;
    api->JxlDecoderCloseInput(decoder);
    for (;;) {
        JxlDecoderStatus event = api->JxlDecoderProcessInput(decoder);
        if (event == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo info;
            if (api->JxlDecoderGetBasicInfo(decoder, &info) != JXL_DEC_SUCCESS) goto done;
            if (!info.have_animation || info.animation.tps_numerator == 0) { status = QUIRE_JXL_OK; goto done; }
            *animated = 1;
            *loops = info.animation.num_loops;
            tick_ms = 1000.0 * (double)info.animation.tps_denominator / (double)info.animation.tps_numerator;
        } else if (event == JXL_DEC_FRAME) {
            JxlFrameHeader header;
            if (api->JxlDecoderGetFrameHeader(decoder, &header) != JXL_DEC_SUCCESS) goto done;
            if (*frames < capacity) {
                double ms = (double)header.duration * tick_ms;
                durations[*frames] = ms > 4e9 ? 4000000000u : (uint32_t)(ms + 0.5);
            }
            *frames += 1;
            if (*frames > capacity) { status = QUIRE_JXL_OK; goto done; }
        } else if (event == JXL_DEC_SUCCESS) {
            status = QUIRE_JXL_OK;
            goto done;
        } else if (event == JXL_DEC_NEED_MORE_INPUT) {
            status = QUIRE_JXL_TRUNCATED;
            goto done;
        } else {
            goto done;
        }
    }
done:
    api->JxlDecoderDestroy(decoder);
    return status;
}

/// An animated JPEG XL image decoded frame by frame, in order: its own copy of the file's
/// bytes, libjxl's decoder, and the canvas the last frame was composited into.
typedef struct {
    /// A copy of the entry points (the caller's may not outlive the call).
    quire_jxl_api api;
    JxlDecoder *_Nullable decoder;
    uint8_t *_Nullable data;
    size_t size;
    uint32_t width, height;
    uint8_t *_Nullable pixels;
    /// Frames decoded so far (the canvas holds the last).
    uint32_t decoded;
} quire_jxl_frames;

/// Starts (or starts again) decoding `frames` from its first frame.
static inline int quire_jxl_frames_restart(quire_jxl_frames *_Nonnull frames) {
    if (frames->decoder) frames->api.JxlDecoderDestroy(frames->decoder);
    frames->decoder = frames->api.JxlDecoderCreate(NULL);
    frames->decoded = 0;
    if (!frames->decoder) return 0;
    if (frames->api.JxlDecoderSubscribeEvents(frames->decoder, JXL_DEC_BASIC_INFO | JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS
        || frames->api.JxlDecoderSetInput(frames->decoder, frames->data, frames->size) != JXL_DEC_SUCCESS) return 0;
    frames->api.JxlDecoderCloseInput(frames->decoder);
    return 1;
}

/// The frames of the image in `data` (copied), whose upright size the caller read before and
/// checked against its pixel limit: NULL without memory.
static inline quire_jxl_frames *_Nullable quire_jxl_frames_open(const quire_jxl_api *_Nonnull api, const uint8_t *_Nonnull data,
                                                                 size_t size, uint32_t width, uint32_t height) {
    quire_jxl_frames *frames = calloc(1, sizeof *frames);
    if (!frames) return NULL;
    frames->api = *api;
    frames->width = width;
    frames->height = height;
    frames->data = malloc(size ? size : 1);
    // calloc: a frame that does not cover the canvas leaves it transparent, never what the
    // memory held.
    frames->pixels = calloc((size_t)width * height, 4);
    if (!frames->data || !frames->pixels) { free(frames->data); free(frames->pixels); free(frames); return NULL; }
    memcpy(frames->data, data, size);
    frames->size = size;
    if (!quire_jxl_frames_restart(frames)) {
        if (frames->decoder) api->JxlDecoderDestroy(frames->decoder);
        free(frames->data); free(frames->pixels); free(frames);
        return NULL;
    }
    return frames;
}

static inline void quire_jxl_frames_close(quire_jxl_frames *_Nullable frames) {
    if (!frames) return;
    if (frames->decoder) frames->api.JxlDecoderDestroy(frames->decoder);
    free(frames->data);
    free(frames->pixels);
    free(frames);
}

/// Decodes the next frame into `frames->pixels` (8-bit RGBA, upright, composited): OK, or
/// DAMAGED when there is none or the data is bad, TRUNCATED when it ends early.
static inline quire_jxl_status quire_jxl_frames_next(quire_jxl_frames *_Nonnull frames) {
    if (!frames->decoder) return QUIRE_JXL_NO_DECODER;
    const quire_jxl_api *api = &frames->api;
    JxlPixelFormat format = { 4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0 };
    size_t bytes = (size_t)frames->width * frames->height * 4;
    for (;;) {
        JxlDecoderStatus event = api->JxlDecoderProcessInput(frames->decoder);
        if (event == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo info;
            if (api->JxlDecoderGetBasicInfo(frames->decoder, &info) != JXL_DEC_SUCCESS) return QUIRE_JXL_DAMAGED;
            int swaps = info.orientation >= JXL_ORIENT_TRANSPOSE;
            if ((swaps ? info.ysize : info.xsize) != frames->width || (swaps ? info.xsize : info.ysize) != frames->height) return QUIRE_JXL_DAMAGED;
        } else if (event == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t needed = 0;
            if (api->JxlDecoderImageOutBufferSize(frames->decoder, &format, &needed) != JXL_DEC_SUCCESS || needed != bytes) return QUIRE_JXL_DAMAGED;
            if (api->JxlDecoderSetImageOutBuffer(frames->decoder, &format, frames->pixels, bytes) != JXL_DEC_SUCCESS) return QUIRE_JXL_DAMAGED;
        } else if (event == JXL_DEC_FULL_IMAGE) {
            frames->decoded += 1;
            return QUIRE_JXL_OK;
        } else if (event == JXL_DEC_NEED_MORE_INPUT) {
            return QUIRE_JXL_TRUNCATED;
        } else {
            return QUIRE_JXL_DAMAGED;
        }
    }
}
#endif
