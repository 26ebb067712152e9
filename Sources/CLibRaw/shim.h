#ifndef CLibRaw_SHIM_H
#define CLibRaw_SHIM_H
// LibRaw (camera RAW files: CR2, NEF, ARW, DNG, RW2…), loaded on first use as libarchive and
// DjVuLibre are: linking it would cost every quire process its relocation (it brings libstdc++,
// libjpeg, lcms2), so the module map links nothing and the entry points are resolved with
// dlopen/dlsym the first time a RAW file is opened. Its C API only; the fields Quire reads of
// libraw_data_t through the accessors below.
#include <libraw/libraw.h>
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>
#include <string.h>

typedef struct {
    __typeof__(&libraw_init) _Nonnull libraw_init;
    __typeof__(&libraw_open_file) _Nonnull libraw_open_file;
    __typeof__(&libraw_unpack_thumb) _Nonnull libraw_unpack_thumb;
    __typeof__(&libraw_dcraw_make_mem_thumb) _Nonnull libraw_dcraw_make_mem_thumb;
    __typeof__(&libraw_dcraw_clear_mem) _Nonnull libraw_dcraw_clear_mem;
    __typeof__(&libraw_close) _Nonnull libraw_close;
    __typeof__(&libraw_strerror) _Nonnull libraw_strerror;
    __typeof__(&libraw_unpack) _Nonnull libraw_unpack;
    __typeof__(&libraw_dcraw_process) _Nonnull libraw_dcraw_process;
    __typeof__(&libraw_dcraw_make_mem_image) _Nonnull libraw_dcraw_make_mem_image;
    __typeof__(&libraw_set_dataerror_handler) _Nonnull libraw_set_dataerror_handler;
} quire_raw_api;

#define QUIRE_RAW_SYMBOL(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    *(void **)&api.name = symbol;

/// Loads libraw_r.so.20 (RTLD_LOCAL) and resolves every entry point once; NULL when the library
/// or a symbol is missing. The result lives for the life of the process. The reentrant build
/// (the same package, libraw20): libraw.so.20 keeps decoder state in globals, and two RAW
/// files developed at once in one process (a library user's threads, the test process) made
/// one of them fail with "Input/output error" now and then.
static inline const quire_raw_api *_Nullable quire_raw_api_load(void) {
    static quire_raw_api api;
    void *library = quire_library_open("libraw_r.so.20");
    if (!library) return NULL;
    void *symbol;
    QUIRE_RAW_SYMBOL(libraw_init);
    QUIRE_RAW_SYMBOL(libraw_open_file);
    QUIRE_RAW_SYMBOL(libraw_unpack_thumb);
    QUIRE_RAW_SYMBOL(libraw_dcraw_make_mem_thumb);
    QUIRE_RAW_SYMBOL(libraw_dcraw_clear_mem);
    QUIRE_RAW_SYMBOL(libraw_close);
    QUIRE_RAW_SYMBOL(libraw_strerror);
    QUIRE_RAW_SYMBOL(libraw_unpack);
    QUIRE_RAW_SYMBOL(libraw_dcraw_process);
    QUIRE_RAW_SYMBOL(libraw_dcraw_make_mem_image);
    QUIRE_RAW_SYMBOL(libraw_set_dataerror_handler);
    return &api;
}

/* LibRaw's data-error callback (a decoder met the file's end or corrupt data; by default it
 * prints "Unexpected end of file" and goes on, leaving pixels it never wrote): counted instead,
 * in the int `flag` points to, so a cut file is refused rather than shown. */
static void quire_raw_count_data_error(void *_Nullable flag, const char *_Nullable file, const int offset) {
    (void)file; (void)offset;
    if (flag) *(int *)flag += 1;
}
static inline void quire_raw_watch_data_errors(const quire_raw_api *_Nonnull api, libraw_data_t *_Nonnull d, int *_Nonnull flag) {
    api->libraw_set_dataerror_handler(d, quire_raw_count_data_error, flag);
}

/// What Quire reads of an opened file (libraw_data_t is one large struct of the library's version).
static inline const char *_Nonnull quire_raw_make(const libraw_data_t *_Nonnull d) { return d->idata.make; }
static inline const char *_Nonnull quire_raw_model(const libraw_data_t *_Nonnull d) { return d->idata.model; }
static inline const char *_Nonnull quire_raw_lens(const libraw_data_t *_Nonnull d) {
    return d->lens.Lens[0] ? d->lens.Lens : d->lens.makernotes.Lens;
}
static inline float quire_raw_iso(const libraw_data_t *_Nonnull d) { return d->other.iso_speed; }
static inline float quire_raw_shutter(const libraw_data_t *_Nonnull d) { return d->other.shutter; }
static inline float quire_raw_aperture(const libraw_data_t *_Nonnull d) { return d->other.aperture; }
static inline float quire_raw_focal_length(const libraw_data_t *_Nonnull d) { return d->other.focal_len; }
static inline long long quire_raw_timestamp(const libraw_data_t *_Nonnull d) { return (long long)d->other.timestamp; }
static inline int quire_raw_has_location(const libraw_data_t *_Nonnull d) { return d->other.parsed_gps.gpsparsed != 0; }
/// The GPS position LibRaw parsed (degrees, minutes, seconds each; `part` 0–2) and its references
/// ('N'/'S', 'E'/'W').
static inline float quire_raw_latitude(const libraw_data_t *_Nonnull d, int part) { return d->other.parsed_gps.latitude[part]; }
static inline float quire_raw_longitude(const libraw_data_t *_Nonnull d, int part) { return d->other.parsed_gps.longitude[part]; }
static inline char quire_raw_latitude_ref(const libraw_data_t *_Nonnull d) { return d->other.parsed_gps.latref; }
static inline char quire_raw_longitude_ref(const libraw_data_t *_Nonnull d) { return d->other.parsed_gps.longref; }
static inline int quire_raw_width(const libraw_data_t *_Nonnull d) { return d->sizes.width; }
static inline int quire_raw_height(const libraw_data_t *_Nonnull d) { return d->sizes.height; }
/// 0 upright, 3 half a turn, 5 a quarter turn anticlockwise, 6 a quarter turn clockwise.
static inline int quire_raw_flip(const libraw_data_t *_Nonnull d) { return d->sizes.flip; }
static inline unsigned quire_raw_thumbnail_length(const libraw_data_t *_Nonnull d) { return d->thumbnail.tlength; }
static inline int quire_raw_thumbnail_width(const libraw_data_t *_Nonnull d) { return d->thumbnail.twidth; }
static inline int quire_raw_thumbnail_height(const libraw_data_t *_Nonnull d) { return d->thumbnail.theight; }
/// Develops at half size (a pixel per 2×2 sensor block: no demosaicing), 8 bits a channel, with
/// the camera's white balance.
static inline void quire_raw_set_quick_develop(libraw_data_t *_Nonnull d) {
    d->params.half_size = 1;
    d->params.output_bps = 8;
    d->params.use_camera_wb = 1;
}
/* Every sensor pixel, demosaiced with AHD (LibRaw's quality 3), the camera's white balance. */
static inline void quire_raw_set_full_develop(libraw_data_t *_Nonnull d) {
    d->params.half_size = 0;
    d->params.user_qual = 3;
    d->params.output_bps = 8;
    d->params.use_camera_wb = 1;
}
static inline int quire_raw_raw_width(const libraw_data_t *_Nonnull d) { return d->sizes.raw_width; }
static inline int quire_raw_raw_height(const libraw_data_t *_Nonnull d) { return d->sizes.raw_height; }
static inline int quire_raw_image_is_jpeg(const libraw_processed_image_t *_Nonnull i) { return i->type == LIBRAW_IMAGE_JPEG; }
static inline const unsigned char *_Nonnull quire_raw_image_data(const libraw_processed_image_t *_Nonnull i) { return i->data; }

#endif
