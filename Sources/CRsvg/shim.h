#ifndef CRsvg_SHIM_H
#define CRsvg_SHIM_H
// Loaded lazily: linking this library would cost every quire process (a thumbnail of a PDF
// included) its start-up time and memory, so the module map links nothing and the entry points
// are resolved with dlopen/dlsym the first time the family is rendered.
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>
// librsvg's header needs -I/usr/include/librsvg-2.0, which only its pkg-config entry gives,
// and that entry would also link the library. The few entry points Quire uses are declared
// here as in librsvg 2.54's rsvg.h (stable API since 2.46/2.52).
#include <glib-object.h>
#include "/usr/include/cairo/cairo.h"  // by absolute path, as CCairo does: pkg-config would link cairo

typedef struct _RsvgHandle RsvgHandle;
/// As librsvg's RsvgRectangle.
typedef struct { double x; double y; double width; double height; } RsvgRectangle;
/// As librsvg's RsvgLength (only passed as NULL here).
typedef struct _RsvgLength RsvgLength;

typedef RsvgHandle *_Nullable (*crsvg_rsvg_handle_new_from_data_fn)(const guint8 *_Nullable data, gsize data_len, GError *_Nullable *_Nullable error);
typedef void (*crsvg_rsvg_handle_set_dpi_fn)(RsvgHandle *_Nonnull handle, double dpi);
typedef gboolean (*crsvg_rsvg_handle_get_intrinsic_size_in_pixels_fn)(RsvgHandle *_Nonnull handle, gdouble *_Nullable out_width, gdouble *_Nullable out_height);
typedef void (*crsvg_rsvg_handle_get_intrinsic_dimensions_fn)(RsvgHandle *_Nonnull handle, gboolean *_Nullable out_has_width, RsvgLength *_Nullable out_width, gboolean *_Nullable out_has_height, RsvgLength *_Nullable out_height, gboolean *_Nullable out_has_viewbox, RsvgRectangle *_Nullable out_viewbox);
typedef gboolean (*crsvg_rsvg_handle_render_document_fn)(RsvgHandle *_Nonnull handle, cairo_t *_Nonnull cr, const RsvgRectangle *_Nonnull viewport, GError *_Nullable *_Nullable error);

/// Entry points, resolved with dlsym when the family is first rendered.
typedef struct {
    crsvg_rsvg_handle_new_from_data_fn _Nonnull rsvg_handle_new_from_data;
    crsvg_rsvg_handle_set_dpi_fn _Nonnull rsvg_handle_set_dpi;
    crsvg_rsvg_handle_get_intrinsic_size_in_pixels_fn _Nonnull rsvg_handle_get_intrinsic_size_in_pixels;
    crsvg_rsvg_handle_get_intrinsic_dimensions_fn _Nonnull rsvg_handle_get_intrinsic_dimensions;
    crsvg_rsvg_handle_render_document_fn _Nonnull rsvg_handle_render_document;
} quire_rsvg_api;

/// Loads librsvg-2.so.2 (RTLD_LOCAL) and resolves every entry point once; NULL when the library
/// or a symbol is missing. The result lives for the life of the process.
static inline const quire_rsvg_api *_Nullable quire_rsvg_api_load(void) {
    static quire_rsvg_api api;
    void *library = quire_library_open("librsvg-2.so.2");
    if (!library) return NULL;
    void *symbol;
    if (!(symbol = dlsym(library, "rsvg_handle_new_from_data"))) return NULL;
    *(void **)&api.rsvg_handle_new_from_data = symbol;
    if (!(symbol = dlsym(library, "rsvg_handle_set_dpi"))) return NULL;
    *(void **)&api.rsvg_handle_set_dpi = symbol;
    if (!(symbol = dlsym(library, "rsvg_handle_get_intrinsic_size_in_pixels"))) return NULL;
    *(void **)&api.rsvg_handle_get_intrinsic_size_in_pixels = symbol;
    if (!(symbol = dlsym(library, "rsvg_handle_get_intrinsic_dimensions"))) return NULL;
    *(void **)&api.rsvg_handle_get_intrinsic_dimensions = symbol;
    if (!(symbol = dlsym(library, "rsvg_handle_render_document"))) return NULL;
    *(void **)&api.rsvg_handle_render_document = symbol;
    return &api;
}
#endif
