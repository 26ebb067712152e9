#ifndef CCairo_SHIM_H
#define CCairo_SHIM_H
// cairo is loaded with dlopen the first time Quire draws (see QuireRender's LazyLibraries):
// commands that draw nothing (--version, info, can-print, print of a PDF) do not map and
// relocate it and the ~20 libraries it pulls in (pixman, freetype, fontconfig, X11, …).
// The headers give the types; the entry points Quire uses are resolved once, with dlsym, into a
// table whose fields have exactly the functions' types.
// Headers by absolute path: pkg-config would give the include directory but also link cairo.
#include "/usr/include/cairo/cairo.h"
#include "/usr/include/cairo/cairo-pdf.h"
#include "/usr/include/cairo/cairo-svg.h"
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>

#define QUIRE_CAIRO_FUNCTIONS(X) \
    X(cairo_clip) \
    X(cairo_create) \
    X(cairo_destroy) \
    X(cairo_fill) \
    X(cairo_font_extents) \
    X(cairo_font_face_destroy) \
    X(cairo_font_face_status) \
    X(cairo_font_options_create) \
    X(cairo_font_options_destroy) \
    X(cairo_font_options_set_hint_metrics) \
    X(cairo_font_options_set_hint_style) \
    X(cairo_image_surface_create) \
    X(cairo_image_surface_get_data) \
    X(cairo_image_surface_get_stride) \
    X(cairo_move_to) \
    X(cairo_paint) \
    X(cairo_pdf_surface_create_for_stream) \
    X(cairo_pdf_surface_set_metadata) \
    X(cairo_pdf_surface_set_size) \
    X(cairo_rectangle) \
    X(cairo_restore) \
    X(cairo_rotate) \
    X(cairo_save) \
    X(cairo_scale) \
    X(cairo_set_font_face) \
    X(cairo_set_font_options) \
    X(cairo_set_font_size) \
    X(cairo_set_source_rgb) \
    X(cairo_set_source_rgba) \
    X(cairo_set_line_width) \
    X(cairo_set_source_surface) \
    X(cairo_show_page) \
    X(cairo_show_text) \
    X(cairo_status) \
    X(cairo_status_to_string) \
    X(cairo_stroke) \
    X(cairo_surface_destroy) \
    X(cairo_surface_finish) \
    X(cairo_surface_flush) \
    X(cairo_surface_mark_dirty) \
    X(cairo_surface_status) \
    X(cairo_svg_surface_create_for_stream) \
    X(cairo_text_extents) \
    X(cairo_translate) \

typedef struct {
#define QUIRE_CAIRO_FIELD(name) __typeof__(name) *_Nonnull name;
    QUIRE_CAIRO_FUNCTIONS(QUIRE_CAIRO_FIELD)
#undef QUIRE_CAIRO_FIELD
    /// cairo_ft_font_face_create_for_pattern (cairo-ft.h needs FreeType's include path, which
    /// only pkg-config gives): a face FreeType opens from a fontconfig pattern's file — Type 1
    /// fonts, which HarfBuzz (and so Pango) cannot read. The pattern is an FcPattern*.
    cairo_font_face_t *_Nullable (*_Nonnull cairo_ft_font_face_create_for_pattern)(void *_Nonnull pattern);
} quire_cairo_api;

/// Loads libcairo.so.2 (RTLD_LOCAL; poppler-glib, Pango and librsvg, loaded later, link the same
/// soname and share this copy) and resolves every entry point once; NULL when the library or a
/// symbol is missing. The table lives for the life of the process.
static inline const quire_cairo_api *_Nullable quire_cairo_api_load(void) {
    static quire_cairo_api api;
    void *library = quire_library_open("libcairo.so.2");
    if (!library) return NULL;
    void *symbol;
#define QUIRE_CAIRO_LOAD(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    *(void **)&api.name = symbol;
    QUIRE_CAIRO_FUNCTIONS(QUIRE_CAIRO_LOAD)
#undef QUIRE_CAIRO_LOAD
    if (!(symbol = dlsym(library, "cairo_ft_font_face_create_for_pattern"))) return NULL;
    *(void **)&api.cairo_ft_font_face_create_for_pattern = symbol;
    return &api;
}
#endif
