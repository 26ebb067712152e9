#ifndef CPoppler_SHIM_H
#define CPoppler_SHIM_H
// poppler-glib is loaded with dlopen the first time Quire opens a PDF (see QuireRender's
// LazyLibraries): commands and families that never read a PDF do not map and relocate poppler
// and what it pulls in (the C++ runtime, NSS, lcms, OpenJPEG, …).
//
// The declarations Quire uses are given here, as in poppler-glib 22.12's <poppler.h>: that header
// includes <cairo.h> by a path only pkg-config knows, and pkg-config would also link poppler-glib
// and cairo. GLib's headers come from CGIO's pkg-config flags (which link nothing Quire does not
// already use); cairo's by its standard path. The entry points are resolved once, with dlsym,
// into a table whose fields have exactly the functions' types.
#include <glib-object.h>
#include <time.h>
#include <dlfcn.h>
#include "../CQuireSystem/library_loading.h"
#include <stddef.h>
#include "/usr/include/cairo/cairo.h"

typedef struct _PopplerDocument PopplerDocument;
typedef struct _PopplerPage PopplerPage;

typedef enum {
    POPPLER_ERROR_INVALID,
    POPPLER_ERROR_ENCRYPTED,
    POPPLER_ERROR_OPEN_FILE,
    POPPLER_ERROR_BAD_CATALOG,
    POPPLER_ERROR_DAMAGED
} PopplerError;

typedef enum {
    POPPLER_PERMISSIONS_OK_TO_PRINT = 1 << 0,
    POPPLER_PERMISSIONS_OK_TO_MODIFY = 1 << 1,
    POPPLER_PERMISSIONS_OK_TO_COPY = 1 << 2,
    POPPLER_PERMISSIONS_OK_TO_ADD_NOTES = 1 << 3,
    POPPLER_PERMISSIONS_OK_TO_FILL_FORM = 1 << 4,
    POPPLER_PERMISSIONS_OK_TO_EXTRACT_CONTENTS = 1 << 5,
    POPPLER_PERMISSIONS_OK_TO_ASSEMBLE = 1 << 6,
    POPPLER_PERMISSIONS_OK_TO_PRINT_HIGH_RESOLUTION = 1 << 7,
    POPPLER_PERMISSIONS_FULL = 0xff
} PopplerPermissions;

/// A rectangle in a page's points (poppler-glib 22.12's public layout; find results are
/// PopplerRectangleExtended underneath, read through poppler_rectangle_find_get_match_continued).
typedef struct {
    double x1;
    double y1;
    double x2;
    double y2;
} PopplerRectangle;

typedef enum {
    POPPLER_FIND_DEFAULT = 0,
    POPPLER_FIND_CASE_SENSITIVE = 1 << 0,
    POPPLER_FIND_BACKWARDS = 1 << 1,
    POPPLER_FIND_WHOLE_WORDS_ONLY = 1 << 2,
    POPPLER_FIND_IGNORE_DIACRITICS = 1 << 3,
    POPPLER_FIND_MULTILINE = 1 << 4
} PopplerFindFlags;

/// A form field (one widget of it: poppler-glib gives each widget of a field its own object).
typedef struct _PopplerFormField PopplerFormField;

typedef enum {
    POPPLER_FORM_FIELD_UNKNOWN,
    POPPLER_FORM_FIELD_BUTTON,
    POPPLER_FORM_FIELD_TEXT,
    POPPLER_FORM_FIELD_CHOICE,
    POPPLER_FORM_FIELD_SIGNATURE
} PopplerFormFieldType;

typedef enum {
    POPPLER_FORM_BUTTON_PUSH,
    POPPLER_FORM_BUTTON_CHECK,
    POPPLER_FORM_BUTTON_RADIO
} PopplerFormButtonType;

typedef enum {
    POPPLER_FORM_CHOICE_COMBO,
    POPPLER_FORM_CHOICE_LIST
} PopplerFormChoiceType;

/// An annotation (poppler-glib's PopplerAnnot and its subclasses, all GObjects).
typedef struct _PopplerAnnot PopplerAnnot;

/// A point on a page in PDF user space (poppler-glib 22.12's public layout).
typedef struct {
    double x;
    double y;
} PopplerPoint;

/// Four corners of a marked run of text: p1 top left, p2 top right, p3 bottom left, p4 bottom right.
typedef struct {
    PopplerPoint p1;
    PopplerPoint p2;
    PopplerPoint p3;
    PopplerPoint p4;
} PopplerQuadrilateral;

/// An annotation's colour, 16 bits a channel.
typedef struct {
    guint16 red;
    guint16 green;
    guint16 blue;
} PopplerColor;

/// An annotation's kind (poppler-glib 22.12's PopplerAnnotType, in its order).
typedef enum {
    POPPLER_ANNOT_UNKNOWN,
    POPPLER_ANNOT_TEXT,
    POPPLER_ANNOT_LINK,
    POPPLER_ANNOT_FREE_TEXT,
    POPPLER_ANNOT_LINE,
    POPPLER_ANNOT_SQUARE,
    POPPLER_ANNOT_CIRCLE,
    POPPLER_ANNOT_POLYGON,
    POPPLER_ANNOT_POLY_LINE,
    POPPLER_ANNOT_HIGHLIGHT,
    POPPLER_ANNOT_UNDERLINE,
    POPPLER_ANNOT_SQUIGGLY,
    POPPLER_ANNOT_STRIKE_OUT,
    POPPLER_ANNOT_STAMP,
    POPPLER_ANNOT_CARET,
    POPPLER_ANNOT_INK,
    POPPLER_ANNOT_POPUP,
    POPPLER_ANNOT_FILE_ATTACHMENT,
    POPPLER_ANNOT_SOUND,
    POPPLER_ANNOT_MOVIE,
    POPPLER_ANNOT_WIDGET,
    POPPLER_ANNOT_SCREEN,
    POPPLER_ANNOT_PRINTER_MARK,
    POPPLER_ANNOT_TRAP_NET,
    POPPLER_ANNOT_WATERMARK,
    POPPLER_ANNOT_3D
} PopplerAnnotType;

/// Where an annotation is on its page (poppler-glib 22.12's public layout).
typedef struct {
    PopplerRectangle area;
    PopplerAnnot *_Nullable annot;
} PopplerAnnotMapping;

/// Where a field's widget is on its page (poppler-glib 22.12's public layout).
typedef struct {
    PopplerRectangle area;
    PopplerFormField *_Nullable field;
} PopplerFormFieldMapping;

typedef struct {
    PopplerDocument *_Nullable (*_Nonnull poppler_document_new_from_fd)(int fd, const char *_Nullable password, GError *_Nullable *_Nullable error);
    int (*_Nonnull poppler_document_get_n_pages)(PopplerDocument *_Nonnull document);
    PopplerPage *_Nullable (*_Nonnull poppler_document_get_page)(PopplerDocument *_Nonnull document, int index);
    gchar *_Nullable (*_Nonnull poppler_document_get_author)(PopplerDocument *_Nonnull document);
    gchar *_Nullable (*_Nonnull poppler_document_get_creator)(PopplerDocument *_Nonnull document);
    gchar *_Nullable (*_Nonnull poppler_document_get_keywords)(PopplerDocument *_Nonnull document);
    gchar *_Nullable (*_Nonnull poppler_document_get_pdf_version_string)(PopplerDocument *_Nonnull document);
    gchar *_Nullable (*_Nonnull poppler_document_get_producer)(PopplerDocument *_Nonnull document);
    gchar *_Nullable (*_Nonnull poppler_document_get_subject)(PopplerDocument *_Nonnull document);
    gchar *_Nullable (*_Nonnull poppler_document_get_title)(PopplerDocument *_Nonnull document);
    time_t (*_Nonnull poppler_document_get_creation_date)(PopplerDocument *_Nonnull document);
    time_t (*_Nonnull poppler_document_get_modification_date)(PopplerDocument *_Nonnull document);
    PopplerPermissions (*_Nonnull poppler_document_get_permissions)(PopplerDocument *_Nonnull document);
    void (*_Nonnull poppler_page_get_size)(PopplerPage *_Nonnull page, double *_Nullable width, double *_Nullable height);
    void (*_Nonnull poppler_page_render)(PopplerPage *_Nonnull page, cairo_t *_Nullable cairo);
    void (*_Nonnull poppler_page_render_for_printing)(PopplerPage *_Nonnull page, cairo_t *_Nullable cairo);
    char *_Nullable (*_Nonnull poppler_page_get_text)(PopplerPage *_Nonnull page);
    GList *_Nullable (*_Nonnull poppler_page_find_text_with_options)(PopplerPage *_Nonnull page, const char *_Nonnull text, PopplerFindFlags options);
    gboolean (*_Nonnull poppler_page_get_text_layout)(PopplerPage *_Nonnull page, PopplerRectangle *_Nullable *_Nullable rectangles, guint *_Nonnull n_rectangles);
    void (*_Nonnull poppler_rectangle_free)(PopplerRectangle *_Nullable rectangle);
    gboolean (*_Nonnull poppler_rectangle_find_get_match_continued)(const PopplerRectangle *_Nonnull rectangle);
    GList *_Nullable (*_Nonnull poppler_page_get_form_field_mapping)(PopplerPage *_Nonnull page);
    void (*_Nonnull poppler_page_free_form_field_mapping)(GList *_Nullable list);
    PopplerFormFieldType (*_Nonnull poppler_form_field_get_field_type)(PopplerFormField *_Nonnull field);
    gchar *_Nullable (*_Nonnull poppler_form_field_get_name)(PopplerFormField *_Nonnull field);
    gchar *_Nullable (*_Nonnull poppler_form_field_get_alternate_ui_name)(PopplerFormField *_Nonnull field);
    gboolean (*_Nonnull poppler_form_field_is_read_only)(PopplerFormField *_Nonnull field);
    PopplerFormButtonType (*_Nonnull poppler_form_field_button_get_button_type)(PopplerFormField *_Nonnull field);
    gboolean (*_Nonnull poppler_form_field_button_get_state)(PopplerFormField *_Nonnull field);
    void (*_Nonnull poppler_form_field_button_set_state)(PopplerFormField *_Nonnull field, gboolean state);
    gchar *_Nullable (*_Nonnull poppler_form_field_text_get_text)(PopplerFormField *_Nonnull field);
    void (*_Nonnull poppler_form_field_text_set_text)(PopplerFormField *_Nonnull field, const gchar *_Nonnull text);
    PopplerFormChoiceType (*_Nonnull poppler_form_field_choice_get_choice_type)(PopplerFormField *_Nonnull field);
    gboolean (*_Nonnull poppler_form_field_choice_is_editable)(PopplerFormField *_Nonnull field);
    gint (*_Nonnull poppler_form_field_choice_get_n_items)(PopplerFormField *_Nonnull field);
    gchar *_Nullable (*_Nonnull poppler_form_field_choice_get_item)(PopplerFormField *_Nonnull field, gint index);
    gboolean (*_Nonnull poppler_form_field_choice_is_item_selected)(PopplerFormField *_Nonnull field, gint index);
    void (*_Nonnull poppler_form_field_choice_select_item)(PopplerFormField *_Nonnull field, gint index);
    void (*_Nonnull poppler_form_field_choice_unselect_all)(PopplerFormField *_Nonnull field);
    void (*_Nonnull poppler_form_field_choice_set_text)(PopplerFormField *_Nonnull field, const gchar *_Nonnull text);
    gchar *_Nullable (*_Nonnull poppler_form_field_choice_get_text)(PopplerFormField *_Nonnull field);
    gboolean (*_Nonnull poppler_document_save)(PopplerDocument *_Nonnull document, const char *_Nonnull uri, GError *_Nullable *_Nullable error);
    PopplerAnnot *_Nullable (*_Nonnull poppler_annot_text_markup_new_highlight)(PopplerDocument *_Nonnull document, PopplerRectangle *_Nonnull rect, GArray *_Nonnull quadrilaterals);
    PopplerAnnot *_Nullable (*_Nonnull poppler_annot_text_markup_new_underline)(PopplerDocument *_Nonnull document, PopplerRectangle *_Nonnull rect, GArray *_Nonnull quadrilaterals);
    PopplerAnnot *_Nullable (*_Nonnull poppler_annot_text_markup_new_strikeout)(PopplerDocument *_Nonnull document, PopplerRectangle *_Nonnull rect, GArray *_Nonnull quadrilaterals);
    PopplerAnnot *_Nullable (*_Nonnull poppler_annot_text_new)(PopplerDocument *_Nonnull document, PopplerRectangle *_Nonnull rect);
    PopplerAnnot *_Nullable (*_Nonnull poppler_annot_square_new)(PopplerDocument *_Nonnull document, PopplerRectangle *_Nonnull rect);
    PopplerAnnot *_Nullable (*_Nonnull poppler_annot_circle_new)(PopplerDocument *_Nonnull document, PopplerRectangle *_Nonnull rect);
    PopplerAnnot *_Nullable (*_Nonnull poppler_annot_line_new)(PopplerDocument *_Nonnull document, PopplerRectangle *_Nonnull rect, PopplerPoint *_Nonnull start, PopplerPoint *_Nonnull end);
    void (*_Nonnull poppler_annot_set_color)(PopplerAnnot *_Nonnull annot, PopplerColor *_Nullable color);
    void (*_Nonnull poppler_annot_set_contents)(PopplerAnnot *_Nonnull annot, const gchar *_Nullable contents);
    void (*_Nonnull poppler_page_add_annot)(PopplerPage *_Nonnull page, PopplerAnnot *_Nonnull annot);
    GList *_Nullable (*_Nonnull poppler_page_get_annot_mapping)(PopplerPage *_Nonnull page);
    void (*_Nonnull poppler_page_free_annot_mapping)(GList *_Nullable list);
    void (*_Nonnull poppler_page_remove_annot)(PopplerPage *_Nonnull page, PopplerAnnot *_Nonnull annot);
    PopplerAnnotType (*_Nonnull poppler_annot_get_annot_type)(PopplerAnnot *_Nonnull annot);
    gchar *_Nullable (*_Nonnull poppler_annot_get_contents)(PopplerAnnot *_Nonnull annot);
} quire_poppler_api;

/// Loads libpoppler-glib.so.8 (RTLD_LOCAL) and resolves every entry point once; NULL when the
/// library or a symbol is missing. The table lives for the life of the process.
static inline const quire_poppler_api *_Nullable quire_poppler_api_load(void) {
    static quire_poppler_api api;
    void *library = quire_library_open("libpoppler-glib.so.8");
    if (!library) return NULL;
    void *symbol;
#define QUIRE_POPPLER_LOAD(name) \
    if (!(symbol = dlsym(library, #name))) return NULL; \
    *(void **)&api.name = symbol;
    QUIRE_POPPLER_LOAD(poppler_document_new_from_fd)
    QUIRE_POPPLER_LOAD(poppler_document_get_n_pages)
    QUIRE_POPPLER_LOAD(poppler_document_get_page)
    QUIRE_POPPLER_LOAD(poppler_document_get_author)
    QUIRE_POPPLER_LOAD(poppler_document_get_creator)
    QUIRE_POPPLER_LOAD(poppler_document_get_keywords)
    QUIRE_POPPLER_LOAD(poppler_document_get_pdf_version_string)
    QUIRE_POPPLER_LOAD(poppler_document_get_producer)
    QUIRE_POPPLER_LOAD(poppler_document_get_subject)
    QUIRE_POPPLER_LOAD(poppler_document_get_title)
    QUIRE_POPPLER_LOAD(poppler_document_get_creation_date)
    QUIRE_POPPLER_LOAD(poppler_document_get_modification_date)
    QUIRE_POPPLER_LOAD(poppler_document_get_permissions)
    QUIRE_POPPLER_LOAD(poppler_page_get_size)
    QUIRE_POPPLER_LOAD(poppler_page_render)
    QUIRE_POPPLER_LOAD(poppler_page_render_for_printing)
    QUIRE_POPPLER_LOAD(poppler_page_get_text)
    QUIRE_POPPLER_LOAD(poppler_page_find_text_with_options)
    QUIRE_POPPLER_LOAD(poppler_page_get_text_layout)
    QUIRE_POPPLER_LOAD(poppler_rectangle_free)
    QUIRE_POPPLER_LOAD(poppler_rectangle_find_get_match_continued)
    QUIRE_POPPLER_LOAD(poppler_page_get_form_field_mapping)
    QUIRE_POPPLER_LOAD(poppler_page_free_form_field_mapping)
    QUIRE_POPPLER_LOAD(poppler_form_field_get_field_type)
    QUIRE_POPPLER_LOAD(poppler_form_field_get_name)
    QUIRE_POPPLER_LOAD(poppler_form_field_get_alternate_ui_name)
    QUIRE_POPPLER_LOAD(poppler_form_field_is_read_only)
    QUIRE_POPPLER_LOAD(poppler_form_field_button_get_button_type)
    QUIRE_POPPLER_LOAD(poppler_form_field_button_get_state)
    QUIRE_POPPLER_LOAD(poppler_form_field_button_set_state)
    QUIRE_POPPLER_LOAD(poppler_form_field_text_get_text)
    QUIRE_POPPLER_LOAD(poppler_form_field_text_set_text)
    QUIRE_POPPLER_LOAD(poppler_form_field_choice_get_choice_type)
    QUIRE_POPPLER_LOAD(poppler_form_field_choice_is_editable)
    QUIRE_POPPLER_LOAD(poppler_form_field_choice_get_n_items)
    QUIRE_POPPLER_LOAD(poppler_form_field_choice_get_item)
    QUIRE_POPPLER_LOAD(poppler_form_field_choice_is_item_selected)
    QUIRE_POPPLER_LOAD(poppler_form_field_choice_select_item)
    QUIRE_POPPLER_LOAD(poppler_form_field_choice_unselect_all)
    QUIRE_POPPLER_LOAD(poppler_form_field_choice_set_text)
    QUIRE_POPPLER_LOAD(poppler_form_field_choice_get_text)
    QUIRE_POPPLER_LOAD(poppler_document_save)
    QUIRE_POPPLER_LOAD(poppler_annot_text_markup_new_highlight)
    QUIRE_POPPLER_LOAD(poppler_annot_text_markup_new_underline)
    QUIRE_POPPLER_LOAD(poppler_annot_text_markup_new_strikeout)
    QUIRE_POPPLER_LOAD(poppler_annot_text_new)
    QUIRE_POPPLER_LOAD(poppler_annot_square_new)
    QUIRE_POPPLER_LOAD(poppler_annot_circle_new)
    QUIRE_POPPLER_LOAD(poppler_annot_line_new)
    QUIRE_POPPLER_LOAD(poppler_annot_set_color)
    QUIRE_POPPLER_LOAD(poppler_annot_set_contents)
    QUIRE_POPPLER_LOAD(poppler_page_add_annot)
    QUIRE_POPPLER_LOAD(poppler_page_get_annot_mapping)
    QUIRE_POPPLER_LOAD(poppler_page_free_annot_mapping)
    QUIRE_POPPLER_LOAD(poppler_page_remove_annot)
    QUIRE_POPPLER_LOAD(poppler_annot_get_annot_type)
    QUIRE_POPPLER_LOAD(poppler_annot_get_contents)
#undef QUIRE_POPPLER_LOAD
    return &api;
}
#endif
