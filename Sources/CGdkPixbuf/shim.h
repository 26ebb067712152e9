#ifndef CGdkPixbuf_SHIM_H
#define CGdkPixbuf_SHIM_H
// gdk-pixbuf is loaded with dlopen the first time an image is decoded or probed. Linked, every
// quire process (a PDF thumbnail included) would map and relocate it at start-up. Its header
// needs -I/usr/include/gdk-pixbuf-2.0, which only its pkg-config entry gives, and that entry
// would also link the library; so the entry points Quire uses are declared here as in
// gdk-pixbuf 2.42's headers (stable API since 2.32/2.36), and resolved once with dlsym into a
// table whose fields have exactly these types. Calling one of them directly fails to link.
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>
#include <glib-object.h>

typedef struct _GdkPixbuf GdkPixbuf;
typedef struct _GdkPixbufLoader GdkPixbufLoader;
typedef struct _GdkPixbufFormat GdkPixbufFormat;
typedef struct _GdkPixbufAnimation GdkPixbufAnimation;
typedef struct _GdkPixbufAnimationIter GdkPixbufAnimationIter;
/// GLib's GTimeVal (two glongs), deprecated in GLib's headers but what the animation iterator
/// takes: declared here under a name of its own so no deprecated type is used.
typedef struct { glong tv_sec; glong tv_usec; } quire_pixbuf_time;
/// gdk-pixbuf's GdkInterpType: only bilinear is used.
enum { QUIRE_PIXBUF_INTERP_BILINEAR = 2 };

GdkPixbufFormat *_Nullable gdk_pixbuf_get_file_info(const gchar *_Nonnull filename, gint *_Nullable width, gint *_Nullable height);
gchar *_Nullable gdk_pixbuf_format_get_name(GdkPixbufFormat *_Nonnull format);
gchar *_Nullable *_Nullable gdk_pixbuf_format_get_mime_types(GdkPixbufFormat *_Nonnull format);
GSList *_Nullable gdk_pixbuf_get_formats(void);
GdkPixbufLoader *_Nullable gdk_pixbuf_loader_new(void);
void gdk_pixbuf_loader_set_size(GdkPixbufLoader *_Nonnull loader, int width, int height);
gboolean gdk_pixbuf_loader_write(GdkPixbufLoader *_Nonnull loader, const guchar *_Nonnull buffer, gsize count, GError *_Nullable *_Nullable error);
gboolean gdk_pixbuf_loader_close(GdkPixbufLoader *_Nonnull loader, GError *_Nullable *_Nullable error);
GdkPixbuf *_Nullable gdk_pixbuf_loader_get_pixbuf(GdkPixbufLoader *_Nonnull loader);
GdkPixbuf *_Nullable gdk_pixbuf_apply_embedded_orientation(GdkPixbuf *_Nonnull source);
int gdk_pixbuf_get_width(const GdkPixbuf *_Nonnull pixbuf);
int gdk_pixbuf_get_height(const GdkPixbuf *_Nonnull pixbuf);
int gdk_pixbuf_get_n_channels(const GdkPixbuf *_Nonnull pixbuf);
int gdk_pixbuf_get_rowstride(const GdkPixbuf *_Nonnull pixbuf);
int gdk_pixbuf_get_bits_per_sample(const GdkPixbuf *_Nonnull pixbuf);
gboolean gdk_pixbuf_get_has_alpha(const GdkPixbuf *_Nonnull pixbuf);
const guint8 *_Nullable gdk_pixbuf_read_pixels(const GdkPixbuf *_Nonnull pixbuf);
GdkPixbufAnimation *_Nullable gdk_pixbuf_loader_get_animation(GdkPixbufLoader *_Nonnull loader);
gboolean gdk_pixbuf_animation_is_static_image(GdkPixbufAnimation *_Nonnull animation);
GdkPixbufAnimationIter *_Nullable gdk_pixbuf_animation_get_iter(GdkPixbufAnimation *_Nonnull animation, const quire_pixbuf_time *_Nullable start_time);
GdkPixbuf *_Nullable gdk_pixbuf_animation_iter_get_pixbuf(GdkPixbufAnimationIter *_Nonnull iter);
int gdk_pixbuf_animation_iter_get_delay_time(GdkPixbufAnimationIter *_Nonnull iter);
gboolean gdk_pixbuf_animation_iter_advance(GdkPixbufAnimationIter *_Nonnull iter, const quire_pixbuf_time *_Nullable current_time);
GdkPixbuf *_Nullable gdk_pixbuf_scale_simple(const GdkPixbuf *_Nonnull src, int dest_width, int dest_height, int interp_type);
/// GdkColorspace: only RGB (0) exists.
GdkPixbuf *_Nullable gdk_pixbuf_new_from_data(const guchar *_Nonnull data, int colorspace, gboolean has_alpha, int bits_per_sample,
                                              int width, int height, int rowstride,
                                              void (*_Nullable destroy_fn)(guchar *_Nonnull pixels, gpointer _Nullable data),
                                              gpointer _Nullable destroy_fn_data);
gboolean gdk_pixbuf_save_to_bufferv(GdkPixbuf *_Nonnull pixbuf, gchar *_Nullable *_Nonnull buffer, gsize *_Nonnull buffer_size,
                                    const char *_Nonnull type, char *_Nullable *_Nullable option_keys,
                                    char *_Nullable *_Nullable option_values, GError *_Nullable *_Nullable error);

#define QUIRE_GDKPIXBUF_FUNCTIONS(X) \
    X(gdk_pixbuf_get_file_info) \
    X(gdk_pixbuf_format_get_name) \
    X(gdk_pixbuf_format_get_mime_types) \
    X(gdk_pixbuf_get_formats) \
    X(gdk_pixbuf_loader_new) \
    X(gdk_pixbuf_loader_set_size) \
    X(gdk_pixbuf_loader_write) \
    X(gdk_pixbuf_loader_close) \
    X(gdk_pixbuf_loader_get_pixbuf) \
    X(gdk_pixbuf_apply_embedded_orientation) \
    X(gdk_pixbuf_get_width) \
    X(gdk_pixbuf_get_height) \
    X(gdk_pixbuf_get_n_channels) \
    X(gdk_pixbuf_get_rowstride) \
    X(gdk_pixbuf_get_bits_per_sample) \
    X(gdk_pixbuf_get_has_alpha) \
    X(gdk_pixbuf_read_pixels) \
    X(gdk_pixbuf_loader_get_animation) \
    X(gdk_pixbuf_animation_is_static_image) \
    X(gdk_pixbuf_animation_get_iter) \
    X(gdk_pixbuf_animation_iter_get_pixbuf) \
    X(gdk_pixbuf_animation_iter_get_delay_time) \
    X(gdk_pixbuf_animation_iter_advance) \
    X(gdk_pixbuf_scale_simple) \
    X(gdk_pixbuf_new_from_data) \
    X(gdk_pixbuf_save_to_bufferv) \

typedef struct {
#define QUIRE_GDKPIXBUF_FIELD(name) __typeof__(name) *_Nonnull name;
    QUIRE_GDKPIXBUF_FUNCTIONS(QUIRE_GDKPIXBUF_FIELD)
#undef QUIRE_GDKPIXBUF_FIELD
} quire_gdkpixbuf_api;

/// Loads libgdk_pixbuf-2.0.so.0 (RTLD_LOCAL) and resolves every entry point; NULL when the
/// library or a symbol is missing. Callers keep the result (Swift `static let`), so this runs
/// once per module that uses it; the table lives for the life of the process.
static inline const quire_gdkpixbuf_api *_Nullable quire_gdkpixbuf_api_load(void) {
    static quire_gdkpixbuf_api api;
    void *library = quire_library_open("libgdk_pixbuf-2.0.so.0");
    if (!library) return NULL;
    void *symbol;
#define QUIRE_GDKPIXBUF_LOAD(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    *(void **)&api.name = symbol;
    QUIRE_GDKPIXBUF_FUNCTIONS(QUIRE_GDKPIXBUF_LOAD)
#undef QUIRE_GDKPIXBUF_LOAD
    return &api;
}
#endif
