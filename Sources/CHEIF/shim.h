#ifndef CHEIF_SHIM_H
#define CHEIF_SHIM_H
// libheif (HEIF, HEIC and AVIF images: a phone's photos, bursts and collections), loaded on first
// use as libjxl and LibRaw are: linking it would cost every quire process its relocation (it
// brings libstdc++, libde265, libaom, libdav1d, libx265), so the module map links nothing and the
// entry points are resolved with dlopen/dlsym the first time such a file is opened. What Quire
// does with it is here in C: open a file through its descriptor, list its top-level images (the primary
// first), tell an image's size as displayed, and decode an image (or the thumbnail the file
// carries for it) to 8-bit RGBA with its transformations (rotation, mirror, crop) applied.
#include <libheif/heif.h>
#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    __typeof__(&heif_context_alloc) _Nonnull heif_context_alloc;
    __typeof__(&heif_context_free) _Nonnull heif_context_free;
    __typeof__(&heif_context_read_from_reader) _Nonnull heif_context_read_from_reader;
    __typeof__(&heif_context_get_number_of_top_level_images) _Nonnull heif_context_get_number_of_top_level_images;
    __typeof__(&heif_context_get_list_of_top_level_image_IDs) _Nonnull heif_context_get_list_of_top_level_image_IDs;
    __typeof__(&heif_context_get_primary_image_ID) _Nonnull heif_context_get_primary_image_ID;
    __typeof__(&heif_context_get_image_handle) _Nonnull heif_context_get_image_handle;
    __typeof__(&heif_image_handle_release) _Nonnull heif_image_handle_release;
    __typeof__(&heif_image_handle_get_width) _Nonnull heif_image_handle_get_width;
    __typeof__(&heif_image_handle_get_height) _Nonnull heif_image_handle_get_height;
    __typeof__(&heif_image_handle_get_number_of_thumbnails) _Nonnull heif_image_handle_get_number_of_thumbnails;
    __typeof__(&heif_image_handle_get_list_of_thumbnail_IDs) _Nonnull heif_image_handle_get_list_of_thumbnail_IDs;
    __typeof__(&heif_image_handle_get_thumbnail) _Nonnull heif_image_handle_get_thumbnail;
    __typeof__(&heif_decode_image) _Nonnull heif_decode_image;
    __typeof__(&heif_image_get_plane_readonly) _Nonnull heif_image_get_plane_readonly;
    __typeof__(&heif_image_get_width) _Nonnull heif_image_get_width;
    __typeof__(&heif_image_get_height) _Nonnull heif_image_get_height;
    __typeof__(&heif_image_release) _Nonnull heif_image_release;
    __typeof__(&heif_context_set_maximum_image_size_limit) _Nonnull heif_context_set_maximum_image_size_limit;
} quire_heif_api;

#define QUIRE_HEIF_SYMBOL(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    api.name = (__typeof__(api.name))symbol

/// Loads libheif.so.1 (RTLD_LOCAL) and resolves every entry point once; NULL when the library or
/// a symbol is missing. The result lives for the life of the process.
static inline const quire_heif_api *_Nullable quire_heif_api_load(void) {
    static quire_heif_api api;
    void *library = quire_library_open("libheif.so.1");
    if (!library) return NULL;
    void *symbol;
    QUIRE_HEIF_SYMBOL(heif_context_alloc);
    QUIRE_HEIF_SYMBOL(heif_context_free);
    QUIRE_HEIF_SYMBOL(heif_context_read_from_reader);
    QUIRE_HEIF_SYMBOL(heif_context_get_number_of_top_level_images);
    QUIRE_HEIF_SYMBOL(heif_context_get_list_of_top_level_image_IDs);
    QUIRE_HEIF_SYMBOL(heif_context_get_primary_image_ID);
    QUIRE_HEIF_SYMBOL(heif_context_get_image_handle);
    QUIRE_HEIF_SYMBOL(heif_image_handle_release);
    QUIRE_HEIF_SYMBOL(heif_image_handle_get_width);
    QUIRE_HEIF_SYMBOL(heif_image_handle_get_height);
    QUIRE_HEIF_SYMBOL(heif_image_handle_get_number_of_thumbnails);
    QUIRE_HEIF_SYMBOL(heif_image_handle_get_list_of_thumbnail_IDs);
    QUIRE_HEIF_SYMBOL(heif_image_handle_get_thumbnail);
    QUIRE_HEIF_SYMBOL(heif_decode_image);
    QUIRE_HEIF_SYMBOL(heif_image_get_plane_readonly);
    QUIRE_HEIF_SYMBOL(heif_image_get_width);
    QUIRE_HEIF_SYMBOL(heif_image_get_height);
    QUIRE_HEIF_SYMBOL(heif_image_release);
    QUIRE_HEIF_SYMBOL(heif_context_set_maximum_image_size_limit);
    return &api;
}

static inline void quire_heif_message(struct heif_error error, char *_Nonnull message, size_t capacity) {
    if (capacity == 0) return;
    strncpy(message, error.message ? error.message : "unknown error", capacity - 1);
    message[capacity - 1] = 0;
}

/// Where libheif reads the file: an open descriptor (never closed here), read with pread as
/// libheif asks, so that only the boxes and the items decoded are read — a phone's 5 MB photo
/// thumbnailed from its thumbnail item costs a few kilobytes of reading.
typedef struct {
    int descriptor;
    int64_t position;
    int64_t size;
} quire_heif_file_state;

static inline int64_t quire_heif_get_position(void *_Nullable userdata) {
    return ((quire_heif_file_state *)userdata)->position;
}

static inline int quire_heif_read(void *_Nullable data, size_t size, void *_Nullable userdata) {
    quire_heif_file_state *state = (quire_heif_file_state *)userdata;
    size_t done = 0;
    while (done < size) {
        ssize_t got = pread(state->descriptor, (uint8_t *)data + done, size - done, (off_t)(state->position + (int64_t)done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 1;
        done += (size_t)got;
    }
    state->position += (int64_t)size;
    return 0;
}

static inline int quire_heif_seek(int64_t position, void *_Nullable userdata) {
    quire_heif_file_state *state = (quire_heif_file_state *)userdata;
    if (position < 0 || position > state->size) return 1;
    state->position = position;
    return 0;
}

static inline enum heif_reader_grow_status quire_heif_wait_for_file_size(int64_t target_size, void *_Nullable userdata) {
    return target_size > ((quire_heif_file_state *)userdata)->size ? heif_reader_grow_status_size_beyond_eof
                                                                  : heif_reader_grow_status_size_reached;
}

static const struct heif_reader quire_heif_reader = {
    1, quire_heif_get_position, quire_heif_read, quire_heif_seek, quire_heif_wait_for_file_size
};

/// Reads the HEIF file open as `descriptor` (`size` bytes; the descriptor must stay open until
/// ``quire_heif_close``). NULL, with libheif's reason in `message`, when it is not one it can
/// read; else the context, and in `*state` what ``quire_heif_close`` frees with it.
static inline struct heif_context *_Nullable quire_heif_open(const quire_heif_api *_Nonnull api, int descriptor, int64_t size,
                                                             void *_Nullable *_Nonnull state,
                                                             char *_Nonnull message, size_t capacity) {
    *state = NULL;
    quire_heif_file_state *file = (quire_heif_file_state *)calloc(1, sizeof *file);
    struct heif_context *context = file ? api->heif_context_alloc() : NULL;
    if (!context) {
        free(file);
        quire_heif_message((struct heif_error){ heif_error_Memory_allocation_error, 0, "no memory" }, message, capacity);
        return NULL;
    }
    file->descriptor = descriptor;
    file->size = size;
    // No side of an image larger than cairo draws (libheif refuses it while reading).
    api->heif_context_set_maximum_image_size_limit(context, 32767);
    struct heif_error error = api->heif_context_read_from_reader(context, &quire_heif_reader, file, NULL);
    if (error.code != heif_error_Ok) {
        quire_heif_message(error, message, capacity);
        api->heif_context_free(context);
        free(file);
        return NULL;
    }
    *state = file;
    return context;
}

/// Frees what ``quire_heif_open`` made.
static inline void quire_heif_close(const quire_heif_api *_Nonnull api, struct heif_context *_Nonnull context, void *_Nullable state) {
    api->heif_context_free(context);
    free(state);
}

/// The file's top-level images, the primary first, the others in the file's order: up to
/// `capacity` ids written to `ids`; returns how many.
static inline int quire_heif_images(const quire_heif_api *_Nonnull api, struct heif_context *_Nonnull context,
                                    heif_item_id *_Nonnull ids, int capacity) {
    int count = api->heif_context_get_number_of_top_level_images(context);
    if (count <= 0 || capacity <= 0) return 0;
    heif_item_id *all = (heif_item_id *)calloc((size_t)count, sizeof *all);
    if (!all) return 0;
    count = api->heif_context_get_list_of_top_level_image_IDs(context, all, count);
    heif_item_id primary = 0;
    int written = 0;
    if (api->heif_context_get_primary_image_ID(context, &primary).code == heif_error_Ok) ids[written++] = primary;
    for (int index = 0; index < count && written < capacity; index++) {
        if (all[index] != primary || written == 0) ids[written++] = all[index];
    }
    free(all);
    return written;
}

/// Image `id`'s size as displayed (its rotation and crop applied); 0 when it cannot be read.
static inline int quire_heif_size(const quire_heif_api *_Nonnull api, struct heif_context *_Nonnull context, heif_item_id id,
                                  int *_Nonnull width, int *_Nonnull height) {
    struct heif_image_handle *handle = NULL;
    if (api->heif_context_get_image_handle(context, id, &handle).code != heif_error_Ok || !handle) return 0;
    *width = api->heif_image_handle_get_width(handle);
    *height = api->heif_image_handle_get_height(handle);
    api->heif_image_handle_release(handle);
    return *width > 0 && *height > 0;
}

/// What a decode ended with.
typedef enum {
    QUIRE_HEIF_OK = 0,
    /// libheif could not decode it (its reason in the message).
    QUIRE_HEIF_FAILED = 1,
    /// More pixels than the limit (the size is given).
    QUIRE_HEIF_TOO_LARGE = 2,
    /// No memory for the pixels.
    QUIRE_HEIF_NO_MEMORY = 3,
} quire_heif_status;

/// Decodes image `id` as 8-bit RGBA (unassociated alpha, opaque when it has none), its
/// transformations applied, into a buffer from malloc (`*pixels`, rows of `*width` × 4 bytes,
/// top to bottom) that the caller frees. With `thumbnail_side` > 0, the thumbnail the file
/// carries for the image is decoded instead when its longest side is at least that. The size is
/// checked against `max_pixels` before anything is decoded.
static inline quire_heif_status quire_heif_decode(const quire_heif_api *_Nonnull api, struct heif_context *_Nonnull context,
                                                  heif_item_id id, int thumbnail_side, uint64_t max_pixels,
                                                  int *_Nonnull width, int *_Nonnull height, uint8_t *_Nullable *_Nonnull pixels,
                                                  char *_Nonnull message, size_t capacity) {
    *width = 0; *height = 0; *pixels = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_error error = api->heif_context_get_image_handle(context, id, &handle);
    if (error.code != heif_error_Ok || !handle) { quire_heif_message(error, message, capacity); return QUIRE_HEIF_FAILED; }
    if (thumbnail_side > 0 && api->heif_image_handle_get_number_of_thumbnails(handle) > 0) {
        heif_item_id thumbnail_id = 0;
        struct heif_image_handle *thumbnail = NULL;
        if (api->heif_image_handle_get_list_of_thumbnail_IDs(handle, &thumbnail_id, 1) == 1
            && api->heif_image_handle_get_thumbnail(handle, thumbnail_id, &thumbnail).code == heif_error_Ok && thumbnail) {
            int w = api->heif_image_handle_get_width(thumbnail), h = api->heif_image_handle_get_height(thumbnail);
            if ((w > h ? w : h) >= thumbnail_side) {
                api->heif_image_handle_release(handle);
                handle = thumbnail;
            } else {
                api->heif_image_handle_release(thumbnail);
            }
        }
    }
    int w = api->heif_image_handle_get_width(handle), h = api->heif_image_handle_get_height(handle);
    *width = w; *height = h;
    if (w <= 0 || h <= 0) {
        api->heif_image_handle_release(handle);
        quire_heif_message((struct heif_error){ heif_error_Invalid_input, 0, "the image has no size" }, message, capacity);
        return QUIRE_HEIF_FAILED;
    }
    if ((uint64_t)w * (uint64_t)h > max_pixels) { api->heif_image_handle_release(handle); return QUIRE_HEIF_TOO_LARGE; }
    struct heif_image *image = NULL;
    error = api->heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL);
    api->heif_image_handle_release(handle);
    if (error.code != heif_error_Ok || !image) { quire_heif_message(error, message, capacity); return QUIRE_HEIF_FAILED; }
    int stride = 0;
    const uint8_t *plane = api->heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    int iw = api->heif_image_get_width(image, heif_channel_interleaved), ih = api->heif_image_get_height(image, heif_channel_interleaved);
    if (!plane || iw <= 0 || ih <= 0 || stride < iw * 4) {
        api->heif_image_release(image);
        quire_heif_message((struct heif_error){ heif_error_Decoder_plugin_error, 0, "no pixels decoded" }, message, capacity);
        return QUIRE_HEIF_FAILED;
    }
    uint8_t *buffer = (uint8_t *)malloc((size_t)iw * (size_t)ih * 4);
    if (!buffer) { api->heif_image_release(image); return QUIRE_HEIF_NO_MEMORY; }
    for (int y = 0; y < ih; y++) memcpy(buffer + (size_t)y * iw * 4, plane + (size_t)y * stride, (size_t)iw * 4);
    api->heif_image_release(image);
    *width = iw; *height = ih; *pixels = buffer;
    return QUIRE_HEIF_OK;
}
#endif
