#ifndef CPangoCairo_SHIM_H
#define CPangoCairo_SHIM_H
// Loaded lazily: Pango (with HarfBuzz, FriBidi, libthai…) is needed only for text pages and
// contact sheets, so the module map links nothing and the entry points are resolved with
// dlopen/dlsym on first use. Pango's headers need pkg-config's include paths, and pkg-config
// would also link the library, so the few entry points Quire uses are declared here as in
// Pango 1.50 (all stable since 1.0–1.16).
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <glib-object.h>
#include "/usr/include/cairo/cairo.h"  // by absolute path, as CCairo does: pkg-config would link cairo

typedef struct _PangoFontMap PangoFontMap;
typedef struct _PangoContext PangoContext;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoLayoutLine PangoLayoutLine;
typedef struct _PangoFontDescription PangoFontDescription;
/// fontconfig's types, opaque here (the font engine gets them from CFontconfig).
typedef struct _FcConfig FcConfig;
typedef struct _FcPattern FcPattern;

/// Pango units per device unit (PANGO_SCALE).
static const int quire_pango_scale = 1024;
/// PANGO_WRAP_WORD_CHAR: wrap at word boundaries, or between characters if a word is too long.
static const int quire_pango_wrap_word_char = 2;

typedef PangoFontMap *_Nullable (*cpangocairo_pango_cairo_font_map_get_default_fn)(void);
typedef PangoContext *_Nullable (*cpangocairo_pango_font_map_create_context_fn)(PangoFontMap *_Nullable fontmap);
typedef void (*cpangocairo_pango_cairo_context_set_font_options_fn)(PangoContext *_Nonnull context, const cairo_font_options_t *_Nullable options);
typedef PangoLayout *_Nullable (*cpangocairo_pango_layout_new_fn)(PangoContext *_Nonnull context);
typedef PangoFontDescription *_Nullable (*cpangocairo_pango_font_description_from_string_fn)(const char *_Nonnull string);
typedef void (*cpangocairo_pango_font_description_free_fn)(PangoFontDescription *_Nullable description);
typedef void (*cpangocairo_pango_layout_set_font_description_fn)(PangoLayout *_Nonnull layout, const PangoFontDescription *_Nullable description);
typedef void (*cpangocairo_pango_layout_set_width_fn)(PangoLayout *_Nonnull layout, int width);
typedef void (*cpangocairo_pango_layout_set_wrap_fn)(PangoLayout *_Nonnull layout, int wrap);
typedef void (*cpangocairo_pango_layout_set_text_fn)(PangoLayout *_Nonnull layout, const char *_Nonnull text, int length);
typedef void (*cpangocairo_pango_layout_set_markup_fn)(PangoLayout *_Nonnull layout, const char *_Nonnull markup, int length);
typedef GSList *_Nullable (*cpangocairo_pango_layout_get_lines_readonly_fn)(PangoLayout *_Nonnull layout);
typedef void (*cpangocairo_pango_cairo_show_layout_line_fn)(cairo_t *_Nonnull cr, PangoLayoutLine *_Nonnull line);
typedef PangoLayout *_Nullable (*cpangocairo_pango_cairo_create_layout_fn)(cairo_t *_Nonnull cr);
typedef void (*cpangocairo_pango_layout_get_pixel_size_fn)(PangoLayout *_Nonnull layout, int *_Nullable width, int *_Nullable height);
typedef void (*cpangocairo_pango_cairo_show_layout_fn)(cairo_t *_Nonnull cr, PangoLayout *_Nonnull layout);
// Pango's fontconfig back end (libpangoft2, which libpangocairo links): a font map over a
// private fontconfig configuration, for the font engine's specimens.
typedef PangoFontMap *_Nullable (*cpangocairo_pango_cairo_font_map_new_for_font_type_fn)(int fonttype);
typedef void (*cpangocairo_pango_fc_font_map_set_config_fn)(PangoFontMap *_Nonnull fontmap, FcConfig *_Nullable fcconfig);
typedef PangoFontDescription *_Nullable (*cpangocairo_pango_fc_font_description_from_pattern_fn)(const FcPattern *_Nonnull pattern, int include_size);
typedef void (*cpangocairo_pango_cairo_context_set_resolution_fn)(PangoContext *_Nonnull context, double dpi);
typedef void (*cpangocairo_pango_font_description_set_absolute_size_fn)(PangoFontDescription *_Nonnull description, double size);
typedef int (*cpangocairo_pango_layout_get_unknown_glyphs_count_fn)(PangoLayout *_Nonnull layout);

/// Entry points, resolved with dlsym when text is first laid out.
typedef struct {
    cpangocairo_pango_cairo_font_map_get_default_fn _Nonnull pango_cairo_font_map_get_default;
    cpangocairo_pango_font_map_create_context_fn _Nonnull pango_font_map_create_context;
    cpangocairo_pango_cairo_context_set_font_options_fn _Nonnull pango_cairo_context_set_font_options;
    cpangocairo_pango_layout_new_fn _Nonnull pango_layout_new;
    cpangocairo_pango_font_description_from_string_fn _Nonnull pango_font_description_from_string;
    cpangocairo_pango_font_description_free_fn _Nonnull pango_font_description_free;
    cpangocairo_pango_layout_set_font_description_fn _Nonnull pango_layout_set_font_description;
    cpangocairo_pango_layout_set_width_fn _Nonnull pango_layout_set_width;
    cpangocairo_pango_layout_set_wrap_fn _Nonnull pango_layout_set_wrap;
    cpangocairo_pango_layout_set_markup_fn _Nonnull pango_layout_set_markup;
    cpangocairo_pango_layout_set_text_fn _Nonnull pango_layout_set_text;
    cpangocairo_pango_layout_get_lines_readonly_fn _Nonnull pango_layout_get_lines_readonly;
    cpangocairo_pango_cairo_show_layout_line_fn _Nonnull pango_cairo_show_layout_line;
    cpangocairo_pango_cairo_create_layout_fn _Nonnull pango_cairo_create_layout;
    cpangocairo_pango_layout_get_pixel_size_fn _Nonnull pango_layout_get_pixel_size;
    cpangocairo_pango_cairo_show_layout_fn _Nonnull pango_cairo_show_layout;
    cpangocairo_pango_cairo_font_map_new_for_font_type_fn _Nonnull pango_cairo_font_map_new_for_font_type;
    cpangocairo_pango_fc_font_map_set_config_fn _Nonnull pango_fc_font_map_set_config;
    cpangocairo_pango_fc_font_description_from_pattern_fn _Nonnull pango_fc_font_description_from_pattern;
    cpangocairo_pango_cairo_context_set_resolution_fn _Nonnull pango_cairo_context_set_resolution;
    cpangocairo_pango_font_description_set_absolute_size_fn _Nonnull pango_font_description_set_absolute_size;
    cpangocairo_pango_layout_get_unknown_glyphs_count_fn _Nonnull pango_layout_get_unknown_glyphs_count;
} quire_pangocairo_api;

/// CAIRO_FONT_TYPE_FT: a Pango font map on fontconfig and FreeType.
static const int quire_cairo_font_type_ft = 1;

/// Loads libpangocairo-1.0.so.0 (and with it libpango) and resolves every entry point once;
/// NULL when the library or a symbol is missing.
static inline const quire_pangocairo_api *_Nullable quire_pangocairo_api_load(void) {
    static quire_pangocairo_api api;
    void *library = quire_library_open("libpangocairo-1.0.so.0");
    if (!library) return NULL;
    void *symbol;
    if (!(symbol = dlsym(library, "pango_cairo_font_map_get_default"))) return NULL;
    *(void **)&api.pango_cairo_font_map_get_default = symbol;
    if (!(symbol = dlsym(library, "pango_font_map_create_context"))) return NULL;
    *(void **)&api.pango_font_map_create_context = symbol;
    if (!(symbol = dlsym(library, "pango_cairo_context_set_font_options"))) return NULL;
    *(void **)&api.pango_cairo_context_set_font_options = symbol;
    if (!(symbol = dlsym(library, "pango_layout_new"))) return NULL;
    *(void **)&api.pango_layout_new = symbol;
    if (!(symbol = dlsym(library, "pango_font_description_from_string"))) return NULL;
    *(void **)&api.pango_font_description_from_string = symbol;
    if (!(symbol = dlsym(library, "pango_font_description_free"))) return NULL;
    *(void **)&api.pango_font_description_free = symbol;
    if (!(symbol = dlsym(library, "pango_layout_set_font_description"))) return NULL;
    *(void **)&api.pango_layout_set_font_description = symbol;
    if (!(symbol = dlsym(library, "pango_layout_set_width"))) return NULL;
    *(void **)&api.pango_layout_set_width = symbol;
    if (!(symbol = dlsym(library, "pango_layout_set_wrap"))) return NULL;
    *(void **)&api.pango_layout_set_wrap = symbol;
    if (!(symbol = dlsym(library, "pango_layout_set_markup"))) return NULL;
    *(void **)&api.pango_layout_set_markup = symbol;
    if (!(symbol = dlsym(library, "pango_layout_set_text"))) return NULL;
    *(void **)&api.pango_layout_set_text = symbol;
    if (!(symbol = dlsym(library, "pango_layout_get_lines_readonly"))) return NULL;
    *(void **)&api.pango_layout_get_lines_readonly = symbol;
    if (!(symbol = dlsym(library, "pango_cairo_show_layout_line"))) return NULL;
    *(void **)&api.pango_cairo_show_layout_line = symbol;
    if (!(symbol = dlsym(library, "pango_cairo_create_layout"))) return NULL;
    *(void **)&api.pango_cairo_create_layout = symbol;
    if (!(symbol = dlsym(library, "pango_layout_get_pixel_size"))) return NULL;
    *(void **)&api.pango_layout_get_pixel_size = symbol;
    if (!(symbol = dlsym(library, "pango_cairo_show_layout"))) return NULL;
    *(void **)&api.pango_cairo_show_layout = symbol;
    // dlsym on libpangocairo's handle also searches what it links (libpangoft2, libpango).
    if (!(symbol = dlsym(library, "pango_cairo_font_map_new_for_font_type"))) return NULL;
    *(void **)&api.pango_cairo_font_map_new_for_font_type = symbol;
    if (!(symbol = dlsym(library, "pango_fc_font_map_set_config"))) return NULL;
    *(void **)&api.pango_fc_font_map_set_config = symbol;
    if (!(symbol = dlsym(library, "pango_fc_font_description_from_pattern"))) return NULL;
    *(void **)&api.pango_fc_font_description_from_pattern = symbol;
    if (!(symbol = dlsym(library, "pango_cairo_context_set_resolution"))) return NULL;
    *(void **)&api.pango_cairo_context_set_resolution = symbol;
    if (!(symbol = dlsym(library, "pango_font_description_set_absolute_size"))) return NULL;
    *(void **)&api.pango_font_description_set_absolute_size = symbol;
    if (!(symbol = dlsym(library, "pango_layout_get_unknown_glyphs_count"))) return NULL;
    *(void **)&api.pango_layout_get_unknown_glyphs_count = symbol;
    return &api;
}
#endif
