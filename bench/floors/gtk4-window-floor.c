/* The floor under the Quick Look window's start: a GTK 4 window with a header bar and one
 * drawing area that paints a white page with a red rectangle (what window-probe waits for),
 * nothing else: no document, no worker, no actions. Same settings as quire-look (cairo
 * renderer, GL disabled). bench/look-window-bench.sh runs it beside the viewers.
 * Build: cc -O2 gtk4-window-floor.c -o gtk4-window-floor $(pkg-config --cflags --libs gtk4)
 * With -DWITH_ADWAITA (and libadwaita-1 from pkg-config) it starts libadwaita first, as
 * quire-look does for its native look: adw_init loads libadwaita's stylesheet (the floor of a
 * window that looks like a GNOME application), after GTK's settings were made with its empty
 * built-in theme rather than the one libadwaita replaces. */
#ifdef WITH_ADWAITA
#include <adwaita.h>
#endif
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

static void draw(GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data) {
    (void)area; (void)data;
    cairo_set_source_rgb(cr, 0.55, 0.55, 0.57);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, 12, 12, width - 24, height - 24);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 1, 0, 0);
    cairo_rectangle(cr, 80, 400, 200, 100);
    cairo_fill(cr);
}

static gboolean closed(GtkWindow *window, gpointer data) {
    (void)window;
    *(gboolean *)data = TRUE;
    return FALSE;
}

int main(void) {
    /* As quire-look does (Sources/QuireLook/main.swift). */
    const char *renderer = getenv("GSK_RENDERER");
    if (!getenv("GDK_DEBUG") && (!renderer || strcmp(renderer, "cairo") == 0)) {
        setenv("GSK_RENDERER", "cairo", 1);
        setenv("GDK_DEBUG", "gl-disable", 1);
    }
#ifdef WITH_ADWAITA
    /* As quire-look does (Sources/QuireLook/Adwaita.swift): GTK's settings start with its
     * built-in "Empty" theme, not the "Default" one that libadwaita replaces at once. */
    int skip_theme = getenv("GTK_THEME") == NULL;
    if (skip_theme) setenv("GTK_THEME", "Empty", 1);
#endif
    if (!gtk_init_check()) return 69;
#ifdef WITH_ADWAITA
    if (skip_theme) {
        gtk_settings_get_default();
        unsetenv("GTK_THEME");
    }
    adw_init();
#endif
    GtkWidget *window = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(window), 900, 860);
    gtk_window_set_title(GTK_WINDOW(window), "floor");
    gtk_window_set_titlebar(GTK_WINDOW(window), gtk_header_bar_new());
    GtkWidget *area = gtk_drawing_area_new();
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(area), draw, NULL, NULL);
    gtk_window_set_child(GTK_WINDOW(window), area);
    gboolean done = FALSE;
    g_signal_connect(window, "close-request", G_CALLBACK(closed), &done);
    gtk_window_present(GTK_WINDOW(window));
    while (!done) g_main_context_iteration(NULL, TRUE);
    return 0;
}
