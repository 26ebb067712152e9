#ifndef CAVIF_SHIM_H
#define CAVIF_SHIM_H
// libavif (AVIF image sequences: animated AVIF), loaded on first use as libjxl is: still AVIF
// images go through libheif; libheif 1.15 reads no sequence track, so an animated AVIF's
// frames and timing come from libavif. The module map links nothing: the entry points are
// resolved with dlopen/dlsym the first time an AVIF sequence is opened.
#include <avif/avif.h>
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    __typeof__(&avifDecoderCreate) _Nonnull avifDecoderCreate;
    __typeof__(&avifDecoderDestroy) _Nonnull avifDecoderDestroy;
    __typeof__(&avifDecoderSetIOMemory) _Nonnull avifDecoderSetIOMemory;
    __typeof__(&avifDecoderSetSource) _Nonnull avifDecoderSetSource;
    __typeof__(&avifDecoderParse) _Nonnull avifDecoderParse;
    __typeof__(&avifDecoderNthImage) _Nonnull avifDecoderNthImage;
    __typeof__(&avifDecoderNthImageTiming) _Nonnull avifDecoderNthImageTiming;
    __typeof__(&avifRGBImageSetDefaults) _Nonnull avifRGBImageSetDefaults;
    __typeof__(&avifImageYUVToRGB) _Nonnull avifImageYUVToRGB;
} quire_avif_api;

#define QUIRE_AVIF_SYMBOL(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    api.name = (__typeof__(api.name))symbol

/// Loads libavif.so.15 (RTLD_LOCAL) and resolves every entry point once; NULL when the library
/// or a symbol is missing. The result lives for the life of the process.
static inline const quire_avif_api *_Nullable quire_avif_api_load(void) {
    static quire_avif_api api;
    void *library = quire_library_open("libavif.so.15");
    if (!library) return NULL;
    void *symbol;
    QUIRE_AVIF_SYMBOL(avifDecoderCreate);
    QUIRE_AVIF_SYMBOL(avifDecoderDestroy);
    QUIRE_AVIF_SYMBOL(avifDecoderSetIOMemory);
    QUIRE_AVIF_SYMBOL(avifDecoderSetSource);
    QUIRE_AVIF_SYMBOL(avifDecoderParse);
    QUIRE_AVIF_SYMBOL(avifDecoderNthImage);
    QUIRE_AVIF_SYMBOL(avifDecoderNthImageTiming);
    QUIRE_AVIF_SYMBOL(avifRGBImageSetDefaults);
    QUIRE_AVIF_SYMBOL(avifImageYUVToRGB);
    return &api;
}

typedef enum {
    QUIRE_AVIF_OK = 0,
    QUIRE_AVIF_NO_DECODER = 1,
    /// Not an image sequence libavif reads (a still AVIF, damaged data).
    QUIRE_AVIF_NOT_SEQUENCE = 2,
    /// A frame cannot be decoded (damaged, cut short).
    QUIRE_AVIF_DAMAGED = 3,
    /// The frames are larger than the pixel limit (the size is still given).
    QUIRE_AVIF_TOO_LARGE = 4,
    QUIRE_AVIF_NO_MEMORY = 5,
} quire_avif_status;

/// An AVIF image sequence: its own copy of the file's bytes, libavif's decoder (reading the
/// sequence's track), and the last frame decoded as 8-bit RGBA.
typedef struct {
    /// A copy of the entry points (the caller's may not outlive the call).
    quire_avif_api api;
    avifDecoder *_Nullable decoder;
    uint8_t *_Nullable data;
    size_t size;
    uint32_t width, height;
    /// Frames in the sequence.
    uint32_t frames;
    /// The last frame decoded (`frames->pixels`, `width` × `height` × 4), allocated with it.
    uint8_t *_Nullable pixels;
} quire_avif_sequence;

static inline void quire_avif_sequence_close(quire_avif_sequence *_Nullable sequence) {
    if (!sequence) return;
    if (sequence->decoder) sequence->api.avifDecoderDestroy(sequence->decoder);
    free(sequence->data);
    free(sequence->pixels);
    free(sequence);
}

/// Parses the image sequence in `data` (copied; no frame decoded): its size (checked against
/// `max_pixels`: TOO_LARGE with the size given) and frame count. NULL with `*status` set when it
/// cannot be read as a sequence.
static inline quire_avif_sequence *_Nullable quire_avif_sequence_open(const quire_avif_api *_Nonnull api, const uint8_t *_Nonnull data,
                                                                       size_t size, uint64_t max_pixels, uint32_t *_Nonnull width,
                                                                       uint32_t *_Nonnull height, quire_avif_status *_Nonnull status) {
    *width = 0; *height = 0;
    *status = QUIRE_AVIF_NO_MEMORY;
    quire_avif_sequence *sequence = calloc(1, sizeof *sequence);
    if (!sequence) return NULL;
    sequence->api = *api;
    sequence->data = malloc(size ? size : 1);
    if (!sequence->data) { free(sequence); return NULL; }
    memcpy(sequence->data, data, size);
    sequence->size = size;
    avifDecoder *decoder = api->avifDecoderCreate();
    if (!decoder) { *status = QUIRE_AVIF_NO_DECODER; quire_avif_sequence_close(sequence); return NULL; }
    sequence->decoder = decoder;
    decoder->maxThreads = 1;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    // The pixel limit, as the AV1 decoder reads it too (dav1d checks it before decoding); the
    // frame count is not limited here: the caller refuses too many frames by their count.
    // libavif refuses a limit above its own default (16384 × 16384) or 0.
    decoder->imageSizeLimit = max_pixels == 0 ? 1 : (max_pixels > AVIF_DEFAULT_IMAGE_SIZE_LIMIT ? AVIF_DEFAULT_IMAGE_SIZE_LIMIT : (uint32_t)max_pixels);
    decoder->imageCountLimit = 0;
    *status = QUIRE_AVIF_NOT_SEQUENCE;
    if (api->avifDecoderSetSource(decoder, AVIF_DECODER_SOURCE_TRACKS) != AVIF_RESULT_OK
        || api->avifDecoderSetIOMemory(decoder, sequence->data, size) != AVIF_RESULT_OK
        || api->avifDecoderParse(decoder) != AVIF_RESULT_OK
        || decoder->imageCount < 1 || !decoder->image || decoder->image->width == 0 || decoder->image->height == 0) {
        quire_avif_sequence_close(sequence);
        return NULL;
    }
    *width = sequence->width = decoder->image->width;
    *height = sequence->height = decoder->image->height;
    sequence->frames = (uint32_t)decoder->imageCount;
    if ((uint64_t)sequence->width * sequence->height > max_pixels) {
        *status = QUIRE_AVIF_TOO_LARGE;
        quire_avif_sequence_close(sequence);
        return NULL;
    }
    *status = QUIRE_AVIF_OK;
    return sequence;
}

/// Frame `index`'s duration in milliseconds (0 when libavif does not know it).
static inline uint32_t quire_avif_sequence_duration(const quire_avif_sequence *_Nonnull sequence, uint32_t index) {
    avifImageTiming timing;
    if (sequence->api.avifDecoderNthImageTiming(sequence->decoder, index, &timing) != AVIF_RESULT_OK) return 0;
    double ms = timing.duration * 1000.0;
    return ms <= 0 ? 0 : (ms > 4e9 ? 4000000000u : (uint32_t)(ms + 0.5));
}

/// Decodes frame `index` (libavif seeks from the keyframe before it) into `sequence->pixels`
/// as 8-bit RGBA, unassociated alpha (opaque when the sequence has none).
static inline quire_avif_status quire_avif_sequence_frame(quire_avif_sequence *_Nonnull sequence, uint32_t index) {
    if (index >= sequence->frames) return QUIRE_AVIF_DAMAGED;
    size_t bytes = (size_t)sequence->width * sequence->height * 4;
    if (!sequence->pixels) {
        // calloc: nothing but decoded pixels ever leaves.
        sequence->pixels = calloc(bytes, 1);
        if (!sequence->pixels) return QUIRE_AVIF_NO_MEMORY;
    }
    avifDecoder *decoder = sequence->decoder;
    if (sequence->api.avifDecoderNthImage(decoder, index) != AVIF_RESULT_OK || !decoder->image
        || decoder->image->width != sequence->width || decoder->image->height != sequence->height) return QUIRE_AVIF_DAMAGED;
    avifRGBImage rgb;
    sequence->api.avifRGBImageSetDefaults(&rgb, decoder->image);
    rgb.format = AVIF_RGB_FORMAT_RGBA;
    rgb.depth = 8;
    rgb.pixels = sequence->pixels;
    rgb.rowBytes = sequence->width * 4;
    if (sequence->api.avifImageYUVToRGB(decoder->image, &rgb) != AVIF_RESULT_OK) return QUIRE_AVIF_DAMAGED;
    return QUIRE_AVIF_OK;
}
#endif
