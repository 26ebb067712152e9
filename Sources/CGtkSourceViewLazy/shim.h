#ifndef CGtkSourceViewLazy_SHIM_H
#define CGtkSourceViewLazy_SHIM_H
// GtkSourceView 5's syntax highlighting for the render worker (code blocks in Markdown and in
// notebooks), loaded with dlopen the first time a code block with a language is laid out: the
// worker never links GTK (every quire process would map it at start-up). The window links the
// same library through CGtkSourceView, as it links cairo through CGtk beside CCairo's loader.
//
// No display is opened and gtk_init is never called: a GtkSourceBuffer highlights without one
// (GtkTextBuffer needs no display). The buffer's text is highlighted once, synchronously, and
// read back as spans of colour; nothing of GTK's is kept but the loaded library.
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "../CQuireSystem/library_loading.h"

/// A stretch of highlighted text: `start` and `length` in Unicode scalars of the text given,
/// `rgb` its colour as 0xRRGGBB in the scheme asked for, `bold` whether the scheme bolds it.
typedef struct {
    int32_t start;
    int32_t length;
    uint32_t rgb;
    int32_t bold;
} quire_highlight_span;

/// As GTK 4's GtkTextIter (gtktextiter.h): an opaque struct the caller keeps on its stack.
typedef struct {
    void *_Nullable dummy1; void *_Nullable dummy2;
    int dummy3, dummy4, dummy5, dummy6, dummy7, dummy8;
    void *_Nullable dummy9; void *_Nullable dummy10;
    int dummy11, dummy12, dummy13;
    void *_Nullable dummy14;
} quire_text_iter;

/// As GDK's GdkRGBA.
typedef struct { float red, green, blue, alpha; } quire_rgba;

typedef struct {
    void (*_Nonnull gtk_source_init)(void);
    void *_Nullable (*_Nonnull gtk_source_language_manager_get_default)(void);
    void *_Nullable (*_Nonnull gtk_source_language_manager_get_language)(void *_Nonnull manager, const char *_Nonnull id);
    void *_Nullable (*_Nonnull gtk_source_language_manager_guess_language)(void *_Nonnull manager, const char *_Nullable filename, const char *_Nullable content_type);
    void *_Nullable (*_Nonnull gtk_source_style_scheme_manager_get_default)(void);
    void *_Nullable (*_Nonnull gtk_source_style_scheme_manager_get_scheme)(void *_Nonnull manager, const char *_Nonnull id);
    void *_Nullable (*_Nonnull gtk_source_buffer_new_with_language)(void *_Nonnull language);
    void (*_Nonnull gtk_source_buffer_set_style_scheme)(void *_Nonnull buffer, void *_Nullable scheme);
    void (*_Nonnull gtk_source_buffer_ensure_highlight)(void *_Nonnull buffer, const quire_text_iter *_Nonnull start, const quire_text_iter *_Nonnull end);
    void (*_Nonnull gtk_text_buffer_set_text)(void *_Nonnull buffer, const char *_Nonnull text, int length);
    void (*_Nonnull gtk_text_buffer_get_bounds)(void *_Nonnull buffer, quire_text_iter *_Nonnull start, quire_text_iter *_Nonnull end);
    int (*_Nonnull gtk_text_iter_forward_to_tag_toggle)(quire_text_iter *_Nonnull iter, void *_Nullable tag);
    int (*_Nonnull gtk_text_iter_get_offset)(const quire_text_iter *_Nonnull iter);
    void *_Nullable (*_Nonnull gtk_text_iter_get_tags)(const quire_text_iter *_Nonnull iter);
    void (*_Nonnull g_object_get)(void *_Nonnull object, const char *_Nonnull first, ...);
    void (*_Nonnull g_object_unref)(void *_Nonnull object);
    int (*_Nonnull g_main_context_acquire)(void *_Nullable context);
    void (*_Nonnull g_main_context_release)(void *_Nullable context);
    void (*_Nonnull g_main_context_invoke_full)(void *_Nullable context, int priority, int (*_Nonnull function)(void *_Nullable),
                                                void *_Nullable data, void (*_Nullable notify)(void *_Nullable));
    void (*_Nonnull g_slist_free)(void *_Nullable list);
    void (*_Nonnull gdk_rgba_free)(void *_Nonnull rgba);
} quire_gtksourceview_api;

/// As GLib's GSList.
typedef struct quire_gslist { void *_Nullable data; struct quire_gslist *_Nullable next; } quire_gslist;

static pthread_mutex_t quire_highlight_lock = PTHREAD_MUTEX_INITIALIZER;

/// Loads libgtksourceview-5.so.0 (and with it GTK 4) once and resolves the entry points; NULL
/// when it is not installed. Call with quire_highlight_lock held.
static inline const quire_gtksourceview_api *_Nullable quire_gtksourceview_api_load_locked(void) {
    static quire_gtksourceview_api api;
    static int state;   /* 0 not tried, 1 loaded, -1 missing */
    if (state != 0) return state > 0 ? &api : NULL;
    state = -1;
    void *library = quire_library_open("libgtksourceview-5.so.0");
    if (!library) return NULL;
    void *symbol;
#define QUIRE_RESOLVE(name) if (!(symbol = dlsym(library, #name))) return NULL; *(void **)&api.name = symbol;
    QUIRE_RESOLVE(gtk_source_init)
    QUIRE_RESOLVE(gtk_source_language_manager_get_default)
    QUIRE_RESOLVE(gtk_source_language_manager_get_language)
    QUIRE_RESOLVE(gtk_source_language_manager_guess_language)
    QUIRE_RESOLVE(gtk_source_style_scheme_manager_get_default)
    QUIRE_RESOLVE(gtk_source_style_scheme_manager_get_scheme)
    QUIRE_RESOLVE(gtk_source_buffer_new_with_language)
    QUIRE_RESOLVE(gtk_source_buffer_set_style_scheme)
    QUIRE_RESOLVE(gtk_source_buffer_ensure_highlight)
    QUIRE_RESOLVE(gtk_text_buffer_set_text)
    QUIRE_RESOLVE(gtk_text_buffer_get_bounds)
    QUIRE_RESOLVE(gtk_text_iter_forward_to_tag_toggle)
    QUIRE_RESOLVE(gtk_text_iter_get_offset)
    QUIRE_RESOLVE(gtk_text_iter_get_tags)
    QUIRE_RESOLVE(g_object_get)
    QUIRE_RESOLVE(g_object_unref)
    QUIRE_RESOLVE(g_main_context_acquire)
    QUIRE_RESOLVE(g_main_context_release)
    QUIRE_RESOLVE(g_main_context_invoke_full)
    QUIRE_RESOLVE(g_slist_free)
    QUIRE_RESOLVE(gdk_rgba_free)
#undef QUIRE_RESOLVE
    api.gtk_source_init();
    state = 1;
    return &api;
}

/// Whether GtkSourceView 5 can be loaded.
static inline int quire_highlight_available(void) {
    pthread_mutex_lock(&quire_highlight_lock);
    int available = quire_gtksourceview_api_load_locked() != NULL;
    pthread_mutex_unlock(&quire_highlight_lock);
    return available;
}

/// The highlighting itself (see ``quire_highlight``), on a thread that owns GLib's default main
/// context, with quire_highlight_lock held by the caller.
static inline int quire_highlight_owned(const quire_gtksourceview_api *_Nonnull api, const char *_Nonnull text,
                                        const char *_Nullable language, const char *_Nullable filename,
                                        const char *_Nonnull scheme, quire_highlight_span *_Nonnull spans, int capacity) {
    void *languages = api->gtk_source_language_manager_get_default();
    void *found = NULL;
    if (languages && language && *language) found = api->gtk_source_language_manager_get_language(languages, language);
    if (languages && !found && filename && *filename) found = api->gtk_source_language_manager_guess_language(languages, filename, NULL);
    void *buffer = found ? api->gtk_source_buffer_new_with_language(found) : NULL;
    if (!buffer) return 0;
    void *schemes = api->gtk_source_style_scheme_manager_get_default();
    void *style = schemes ? api->gtk_source_style_scheme_manager_get_scheme(schemes, scheme) : NULL;
    api->gtk_source_buffer_set_style_scheme(buffer, style);
    api->gtk_text_buffer_set_text(buffer, text, -1);
    quire_text_iter start, end;
    memset(&start, 0, sizeof start);
    memset(&end, 0, sizeof end);
    api->gtk_text_buffer_get_bounds(buffer, &start, &end);
    api->gtk_source_buffer_ensure_highlight(buffer, &start, &end);
    int count = 0;
    quire_text_iter at = start;
    int offset = api->gtk_text_iter_get_offset(&at);
    while (count < capacity) {
        // The colour here: the last tag (highest priority) that sets a foreground.
        uint32_t rgb = 0;
        int coloured = 0, bold = 0;
        for (quire_gslist *tag = (quire_gslist *)api->gtk_text_iter_get_tags(&at), *list = tag; ; ) {
            if (!tag) { api->g_slist_free(list); break; }
            int foregroundSet = 0, weightSet = 0, weight = 0;
            quire_rgba *colour = NULL;
            api->g_object_get(tag->data, "foreground-set", &foregroundSet, "foreground-rgba", &colour,
                              "weight-set", &weightSet, "weight", &weight, (char *)NULL);
            if (foregroundSet && colour) {
                coloured = 1;
                rgb = ((uint32_t)(colour->red * 255.0f + 0.5f) << 16) | ((uint32_t)(colour->green * 255.0f + 0.5f) << 8)
                    | (uint32_t)(colour->blue * 255.0f + 0.5f);
            }
            if (weightSet) bold = weight >= 600;
            if (colour) api->gdk_rgba_free(colour);
            tag = tag->next;
        }
        int more = api->gtk_text_iter_forward_to_tag_toggle(&at, NULL);
        int next = api->gtk_text_iter_get_offset(&at);
        if (coloured && next > offset) {
            spans[count].start = offset;
            spans[count].length = next - offset;
            spans[count].rgb = rgb;
            spans[count].bold = bold;
            count++;
        }
        offset = next;
        if (!more) break;
    }
    api->g_object_unref(buffer);
    return count;
}

/// A highlighting handed to the thread that runs GLib's default main context.
typedef struct {
    const quire_gtksourceview_api *_Nonnull api;
    const char *_Nonnull text;
    const char *_Nullable language;
    const char *_Nullable filename;
    const char *_Nonnull scheme;
    quire_highlight_span *_Nonnull spans;
    int capacity;
    int result;
    /// 0 waiting, 1 running, 2 done, 3 given up by the caller (the owner then does nothing).
    int state;
    int references;
    pthread_mutex_t mutex;
    pthread_cond_t changed;
} quire_highlight_job;

static inline void quire_highlight_job_release(quire_highlight_job *_Nonnull job) {
    pthread_mutex_lock(&job->mutex);
    int left = --job->references;
    pthread_mutex_unlock(&job->mutex);
    if (left == 0) {
        pthread_mutex_destroy(&job->mutex);
        pthread_cond_destroy(&job->changed);
        free(job);
    }
}

static inline int quire_highlight_job_run(void *_Nullable data) {
    quire_highlight_job *job = (quire_highlight_job *)data;
    pthread_mutex_lock(&job->mutex);
    int wanted = job->state == 0;
    if (wanted) job->state = 1;
    pthread_mutex_unlock(&job->mutex);
    if (wanted) {
        int result = quire_highlight_owned(job->api, job->text, job->language, job->filename, job->scheme, job->spans, job->capacity);
        pthread_mutex_lock(&job->mutex);
        job->result = result;
        job->state = 2;
        pthread_cond_broadcast(&job->changed);
        pthread_mutex_unlock(&job->mutex);
    }
    quire_highlight_job_release(job);
    return 0;   /* G_SOURCE_REMOVE */
}

/// Highlights `text` (UTF-8, NUL-terminated) as `language` — a GtkSourceView language id
/// ("python3", "c"), else guessed from `filename` ("x.py") — in the style scheme `scheme`, and
/// writes up to `capacity` spans of colour to `spans`, in order. Returns how many were written
/// (0 when no language matches, or when the thread running GLib's default main context did not
/// take the work within `wait_milliseconds`), or -1 when GtkSourceView is not installed.
///
/// One call at a time in the process, and only on the thread that owns GLib's default main
/// context: GtkSourceView schedules its highlighting work as idle and timeout sources there, and
/// a thread iterating that context (a GTK program's main loop, a D-Bus service's) would run them
/// at the same time as this thread works on the same buffer. So the context is acquired here
/// when no other thread holds it (nothing else can dispatch while this runs, and the buffer's
/// sources are gone with it), and otherwise the work is handed to the thread that holds it.
static inline int quire_highlight(const char *_Nonnull text, const char *_Nullable language, const char *_Nullable filename,
                                  const char *_Nonnull scheme, quire_highlight_span *_Nonnull spans, int capacity,
                                  int wait_milliseconds) {
    pthread_mutex_lock(&quire_highlight_lock);
    const quire_gtksourceview_api *api = quire_gtksourceview_api_load_locked();
    if (!api) { pthread_mutex_unlock(&quire_highlight_lock); return -1; }
    int result = 0;
    if (api->g_main_context_acquire(NULL)) {
        result = quire_highlight_owned(api, text, language, filename, scheme, spans, capacity);
        api->g_main_context_release(NULL);
    } else {
        quire_highlight_job *job = (quire_highlight_job *)calloc(1, sizeof *job);
        if (job) {
            job->api = api; job->text = text; job->language = language; job->filename = filename;
            job->scheme = scheme; job->spans = spans; job->capacity = capacity;
            job->references = 2;
            pthread_mutex_init(&job->mutex, NULL);
            pthread_condattr_t attributes;
            pthread_condattr_init(&attributes);
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
            pthread_cond_init(&job->changed, &attributes);
            pthread_condattr_destroy(&attributes);
            api->g_main_context_invoke_full(NULL, 0, quire_highlight_job_run, job, NULL);
            struct timespec until;
            clock_gettime(CLOCK_MONOTONIC, &until);
            until.tv_sec += wait_milliseconds / 1000;
            until.tv_nsec += (long)(wait_milliseconds % 1000) * 1000000L;
            if (until.tv_nsec >= 1000000000L) { until.tv_sec += 1; until.tv_nsec -= 1000000000L; }
            pthread_mutex_lock(&job->mutex);
            while (job->state < 2) {
                // Waiting past the time only for work already running (it ends on its own).
                if (job->state == 0 && pthread_cond_timedwait(&job->changed, &job->mutex, &until) != 0 && job->state == 0) {
                    job->state = 3;
                    break;
                }
                if (job->state == 1) pthread_cond_wait(&job->changed, &job->mutex);
            }
            if (job->state == 2) result = job->result;
            pthread_mutex_unlock(&job->mutex);
            quire_highlight_job_release(job);
        }
    }
    pthread_mutex_unlock(&quire_highlight_lock);
    return result;
}
#endif
