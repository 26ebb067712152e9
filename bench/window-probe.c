/* window-probe: times a viewer from its start to its first window and to the first screen
 * frame that shows page content, the same way for every viewer (bench/look-window-bench.sh).
 *
 *   window-probe [-r MIN_RED] [-c RRGGBB [-d TOLERANCE]] [-b] [-t TIMEOUT_S] [-i INTERVAL_MS]
 *                -- COMMAND [ARG...]
 *
 * The clock starts just before COMMAND is started (fork + exec, no shell). The probe then
 * grabs the whole X screen every INTERVAL_MS (MIT-SHM when available) and reports:
 *   window_ms  the first grab after a new top-level window became viewable (>= 200x200)
 *   page_ms    the first grab with at least MIN_RED pure-red pixels on screen: the sample's
 *              pages carry a red rectangle and no viewer's own chrome is pure red, so this is
 *              "page pixels are on the screen", whatever toolkit drew them
 * With -c, the pixels counted are those within TOLERANCE (default 40) of RRGGBB in each channel
 * instead of pure red (bench/media-window-bench.sh: a video's red half, a font's dark glyphs).
 * With -b, the screen before COMMAND starts is the baseline: page content is MIN_RED pixels
 * that match now and did not before (the window is already open on another file, COMMAND is
 * the key that turns to the next one; the header's dark text, unchanged, does not count).
 * Output, one line: "window_ms=N page_ms=N pid=N start_ms=T" (T: CLOCK_MONOTONIC at the start,
 * to line up a viewer's own trace); COMMAND keeps running, its output to /dev/null.
 * Exit 0 when page content appeared, 1 on timeout, 2 on usage/X errors.
 * COMMAND may return at once (a D-Bus call that asks a service to show the file): the probe
 * keeps watching the screen. Build: cc -O2 window-probe.c -o window-probe -lX11 -lXext
 */
#define _GNU_SOURCE
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static int viewable_toplevels(Display *display, Window root, Window *found, int capacity) {
    Window parent, root_return, *children = NULL;
    unsigned int count = 0;
    int n = 0;
    if (!XQueryTree(display, root, &root_return, &parent, &children, &count)) return 0;
    for (unsigned int i = 0; i < count; i++) {
        XWindowAttributes attributes;
        if (!XGetWindowAttributes(display, children[i], &attributes)) continue;
        if (attributes.map_state == IsViewable && attributes.width >= 200 && attributes.height >= 200 && n < capacity)
            found[n++] = children[i];
    }
    if (children) XFree(children);
    return n;
}

static int x_error(Display *display, XErrorEvent *event) {
    (void)display; (void)event;  /* windows come and go between XQueryTree and the attributes */
    return 0;
}

/* The colour counted: pure red by default, else within `tolerance` of (r, g, b). */
static int use_colour = 0, tolerance = 40;
static unsigned int want_r, want_g, want_b;

static int matches(unsigned int r, unsigned int g, unsigned int b) {
    if (!use_colour) return r > 200 && g < 60 && b < 60;
    return abs((int)r - (int)want_r) <= tolerance && abs((int)g - (int)want_g) <= tolerance
        && abs((int)b - (int)want_b) <= tolerance;
}

/* Counts the matching pixels on the screen, leaving out those set in `before` (when given);
 * with `record`, marks the matching ones in it instead. */
static long count_matching(Display *display, Window root, XImage *image, int use_shm, int width, int height,
                           unsigned char *before, int record) {
    XImage *frame = image;
    if (use_shm) {
        XShmGetImage(display, root, image, 0, 0, AllPlanes);
    } else {
        frame = XGetImage(display, root, 0, 0, width, height, AllPlanes, ZPixmap);
    }
    long count = 0;
    if (frame && frame->bits_per_pixel == 32) {
        for (int y = 0; y < height; y++) {
            const unsigned int *row = (const unsigned int *)(frame->data + (size_t)y * frame->bytes_per_line);
            for (int x = 0; x < width; x++) {
                unsigned int p = row[x];
                if (!matches((p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff)) continue;
                size_t at = (size_t)y * width + x;
                if (record) before[at] = 1;
                else if (!before || !before[at]) count++;
            }
        }
    }
    if (!use_shm && frame) XDestroyImage(frame);
    return count;
}

int main(int argc, char **argv) {
    long min_red = 2000;
    double timeout_s = 30, interval_ms = 10;
    int option, baseline = 0;
    while ((option = getopt(argc, argv, "r:t:i:c:d:b")) != -1) {
        switch (option) {
        case 'r': min_red = atol(optarg); break;
        case 'c': {
            unsigned long rgb = strtoul(optarg, NULL, 16);
            use_colour = 1;
            want_r = (rgb >> 16) & 0xff; want_g = (rgb >> 8) & 0xff; want_b = rgb & 0xff;
            break;
        }
        case 'd': tolerance = atoi(optarg); break;
        case 'b': baseline = 1; break;
        case 't': timeout_s = atof(optarg); break;
        case 'i': interval_ms = atof(optarg); break;
        default: fprintf(stderr, "usage: window-probe [-r MIN_RED] [-c RRGGBB [-d TOL]] [-b] [-t S] [-i MS] -- COMMAND...\n"); return 2;
        }
    }
    if (optind >= argc) { fprintf(stderr, "window-probe: no command\n"); return 2; }
    Display *display = XOpenDisplay(NULL);
    if (!display) { fprintf(stderr, "window-probe: cannot open display\n"); return 2; }
    XSetErrorHandler(x_error);
    int screen = DefaultScreen(display);
    Window root = RootWindow(display, screen);
    int width = DisplayWidth(display, screen), height = DisplayHeight(display, screen);
    Visual *visual = DefaultVisual(display, screen);

    Window before[256];
    int before_count = viewable_toplevels(display, root, before, 256);

    XShmSegmentInfo shm = {0};
    XImage *image = NULL;
    int use_shm = XShmQueryExtension(display);
    if (use_shm) {
        image = XShmCreateImage(display, visual, DefaultDepth(display, screen), ZPixmap, NULL, &shm, width, height);
        shm.shmid = shmget(IPC_PRIVATE, (size_t)image->bytes_per_line * image->height, IPC_CREAT | 0600);
        shm.shmaddr = image->data = shmat(shm.shmid, NULL, 0);
        shm.readOnly = False;
        XShmAttach(display, &shm);
        XSync(display, False);
        shmctl(shm.shmid, IPC_RMID, NULL);
    }

    unsigned char *before_pixels = NULL;
    if (baseline) {
        before_pixels = calloc((size_t)width * height, 1);
        if (!before_pixels) { fprintf(stderr, "window-probe: out of memory\n"); return 2; }
        count_matching(display, root, image, use_shm, width, height, before_pixels, 1);
    }
    double start = now_ms();
    pid_t child = fork();
    if (child < 0) { perror("fork"); return 2; }
    if (child == 0) {
        /* The viewer must not hold the probe's standard output: a caller reading it to the
         * end ($(...)) would wait for the viewer to exit. */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) { dup2(null, 1); close(null); }
        execvp(argv[optind], argv + optind);
        perror("window-probe: exec");
        _exit(127);
    }
    double window_ms = -1, page_ms = -1;
    while (now_ms() - start < timeout_s * 1000) {
        double grab = now_ms();
        if (window_ms < 0) {
            Window current[256];
            int n = viewable_toplevels(display, root, current, 256);
            for (int i = 0; i < n && window_ms < 0; i++) {
                int old = 0;
                for (int j = 0; j < before_count; j++) if (before[j] == current[i]) old = 1;
                if (!old) window_ms = grab - start;
            }
        }
        long red = count_matching(display, root, image, use_shm, width, height, before_pixels, 0);
        if (red >= min_red) {
            page_ms = grab - start;
            if (window_ms < 0) window_ms = page_ms;
            break;
        }
        double spent = now_ms() - grab;
        if (spent < interval_ms) usleep((useconds_t)((interval_ms - spent) * 1000));
        waitpid(-1, NULL, WNOHANG);  /* reap a COMMAND that returned (gdbus call) */
    }
    printf("window_ms=%.0f page_ms=%.0f pid=%d start_ms=%.1f\n", window_ms, page_ms, (int)child, start);
    fflush(stdout);
    if (use_shm) { XShmDetach(display, &shm); shmdt(shm.shmaddr); }
    XCloseDisplay(display);
    return page_ms >= 0 ? 0 : 1;
}
