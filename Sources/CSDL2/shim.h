#ifndef TESSERA_CSDL2_SHIM_H
#define TESSERA_CSDL2_SHIM_H

#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
#include <SDL2/SDL_image.h>
#include <turbojpeg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ot.h>
#include <fribidi/fribidi.h>
#include <zlib.h>
#include <png.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/fsuid.h>
#include <time.h>
#include <sched.h>
#include <sys/prctl.h>
// gexiv2 (exiv2's XMP and EXIF) when installed, for the demo's photo browser; an app without
// it builds the same. GLib's headers are included by one module only: two modules including
// them disagree under the sanitizers.
#if __has_include(<gexiv2/gexiv2.h>)
#include <gexiv2/gexiv2.h>
#include <dlfcn.h>
#include <pthread.h>

// gexiv2 is loaded the first time metadata is read or written (dlopen), not linked: a program
// that never does maps no exiv2 (1.5 MB resident, 0.8 ms before main). Each function the
// browser calls is tessera_gexiv2_<name>, which fails (FALSE or NULL) when the library is missing.
#define TESSERA_GEXIV2_FUNCTIONS(X) \
    X(gboolean, initialize, (void), ()) \
    X(GExiv2Metadata *, metadata_new, (void), ()) \
    X(gboolean, metadata_open_path, (GExiv2Metadata * self, const gchar *path, GError **error), \
      (self, path, error)) \
    X(gboolean, metadata_open_buf, (GExiv2Metadata * self, const guint8 *data, glong n_data, GError **error), \
      (self, data, n_data, error)) \
    X(gchar *, metadata_try_get_tag_interpreted_string, (GExiv2Metadata * self, const gchar *tag, GError **error), \
      (self, tag, error)) \
    X(gboolean, metadata_try_set_tag_string, \
      (GExiv2Metadata * self, const gchar *tag, const gchar *value, GError **error), (self, tag, value, error)) \
    X(gboolean, metadata_try_clear_tag, (GExiv2Metadata * self, const gchar *tag, GError **error), \
      (self, tag, error)) \
    X(gchar *, metadata_try_generate_xmp_packet, \
      (GExiv2Metadata * self, GExiv2XmpFormatFlags flags, guint32 padding, GError **error), \
      (self, flags, padding, error)) \
    X(gboolean, metadata_try_set_tag_multiple, \
      (GExiv2Metadata * self, const gchar *tag, const gchar **values, GError **error), (self, tag, values, error)) \
    X(gboolean, metadata_try_has_tag, (GExiv2Metadata * self, const gchar *tag, GError **error), (self, tag, error)) \
    X(gchar *, metadata_try_get_tag_string, (GExiv2Metadata * self, const gchar *tag, GError **error), \
      (self, tag, error)) \
    X(gchar **, metadata_try_get_tag_multiple, (GExiv2Metadata * self, const gchar *tag, GError **error), \
      (self, tag, error))

typedef struct {
#define TESSERA_GEXIV2_FIELD(type, name, params, args) type(*name) params;
    TESSERA_GEXIV2_FUNCTIONS(TESSERA_GEXIV2_FIELD)
    int loaded;
} TesseraGexiv2;

static inline TesseraGexiv2 *tessera_gexiv2_table(void) {
    static TesseraGexiv2 table;
    return &table;
}

static inline void tessera_gexiv2_load(void) {
    void *library = dlopen("libgexiv2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    TesseraGexiv2 *table = tessera_gexiv2_table();
    int all = 1;
#define TESSERA_GEXIV2_LOAD(type, name, params, args) \
    *(void **)&table->name = dlsym(library, "gexiv2_" #name); \
    all = all && table->name;
    TESSERA_GEXIV2_FUNCTIONS(TESSERA_GEXIV2_LOAD)
    table->loaded = all;
}

/// Whether libgexiv2.so.2 could be loaded (it is, on the first call).
static inline int tessera_gexiv2_available(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, tessera_gexiv2_load);
    return tessera_gexiv2_table()->loaded;
}

#define TESSERA_GEXIV2_WRAPPER(type, name, params, args) \
    static inline type tessera_gexiv2_##name params { \
        return tessera_gexiv2_available() ? tessera_gexiv2_table()->name args : (type)0; \
    }
TESSERA_GEXIV2_FUNCTIONS(TESSERA_GEXIV2_WRAPPER)
#endif

// Function-like and compound macros that Swift does not import.

static inline int tessera_windowpos_centered(void) { return (int)SDL_WINDOWPOS_CENTERED; }
static inline int tessera_windowpos_undefined(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }
static inline Uint32 tessera_button_mask(int button) { return SDL_BUTTON(button); }
static inline Uint32 tessera_touch_mouse_id(void) { return SDL_TOUCH_MOUSEID; }
static inline Sint64 tessera_mouse_touch_id(void) { return (Sint64)SDL_MOUSE_TOUCHID; }
static inline Uint32 tessera_pixelformat_abgr8888(void) { return SDL_PIXELFORMAT_ABGR8888; }
static inline Uint32 tessera_pixelformat_rgba32(void) { return SDL_PIXELFORMAT_RGBA32; }
static inline Uint32 tessera_pixelformat_argb8888(void) { return SDL_PIXELFORMAT_ARGB8888; }

// The main dispatch queue, which runs the main actor's jobs on Linux. libdispatch exports these
// for run loops that are not CoreFoundation's (swift-corelibs-foundation uses them the same
// way): an eventfd that becomes readable when the queue has work, and the call that drains it
// on the main thread. They come with the toolchain's libdispatch, which every Swift program links.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

// Text: FreeType load targets and FriBidi's automatic paragraph direction.
static inline FT_Int32 tessera_ft_load_target_light(void) { return FT_LOAD_TARGET_LIGHT; }
static inline FriBidiParType tessera_fribidi_par_auto(void) { return FRIBIDI_PAR_ON; }
static inline int tessera_fribidi_is_rtl(FriBidiParType direction) { return FRIBIDI_IS_RTL(direction) ? 1 : 0; }

/* A cheap tick counter for profiler scopes: the TSC on x86-64 (about 12 ns to read where
   clock_gettime takes 30), else CLOCK_MONOTONIC in nanoseconds. */
static inline unsigned long long tessera_ticks(void) {
#if defined(__x86_64__)
    unsigned int lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((unsigned long long)hi << 32) | lo;
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
#endif
}
/// Names the calling thread as `top -H`, `perf` and debuggers show it (Linux keeps 15 bytes).
static inline void tessera_name_current_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }
/// Copies the calling thread's name, as the kernel knows it, into `name` (16 bytes).
static inline void tessera_current_thread_name(char name[16]) { prctl(PR_GET_NAME, name, 0, 0, 0); }
/// Lowers the calling thread's scheduling priority by `nice` (Linux: per-thread niceness).
static inline void tessera_nice_current_thread(int nice) { setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice); }
/// The calling thread's niceness.
static inline int tessera_current_thread_nice(void) { return getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid)); }

/// Linux's idle scheduling class (<sched.h> names it only under _GNU_SOURCE).
#define TESSERA_SCHED_IDLE 5
/// Moves the calling thread to the idle scheduling class: it runs only on a core no other
/// thread wants, and any thread that wakes preempts it at once. Returns 0 on success.
static inline int tessera_idle_current_thread(void) {
    struct sched_param param = { .sched_priority = 0 };
    return sched_setscheduler(0, TESSERA_SCHED_IDLE, &param);
}
/// Whether the calling thread is in the idle scheduling class.
static inline int tessera_current_thread_is_idle_class(void) { return sched_getscheduler(0) == TESSERA_SCHED_IDLE; }

/// Sets the calling thread's filesystem user ID (tests use it to see folders as an ordinary
/// user would); returns the previous one.
static inline int tessera_set_filesystem_uid(int uid) { return setfsuid((uid_t)uid); }

// A region of a JPEG, decoded with libjpeg-turbo's cropping and scanline skipping: the 1:1
// viewer of a 200-megapixel photo decodes the part in view, not the photo. (TurboJPEG 3 has
// tj3SetCroppingRegion; Debian 12 ships 2.1, so libjpeg's own API is used, with its errors
// caught by setjmp here, where Swift cannot.)
struct tessera_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};
static void tessera_jpeg_error_exit(j_common_ptr info) {
    struct tessera_jpeg_error *error = (struct tessera_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}
static void tessera_jpeg_no_output(j_common_ptr info, int level) { (void)info; (void)level; }
struct tessera_jpeg_warnings {
    struct tessera_jpeg_error base;
    char last[JMSG_LENGTH_MAX];
    int count;
};
/// Stops a progressive JPEG past 500 scans, as TurboJPEG's TJFLAG_LIMITSCANS does.
static void tessera_jpeg_limit_scans(j_common_ptr info) {
    if (info->is_decompressor && ((j_decompress_ptr)info)->input_scan_number > 500) {
        struct tessera_jpeg_error *error = (struct tessera_jpeg_error *)info->err;
        snprintf(error->message, sizeof error->message, "more than 500 scans");
        longjmp(error->jump, 1);
    }
}
/// Reads the header of the JPEG in `data` and asks for RGBA at 1/`scale`, with the fast
/// integer DCT and the scan limit; errors longjmp to the caller's `setjmp`.
static void tessera_jpeg_open(j_decompress_ptr info, struct jpeg_progress_mgr *progress, const unsigned char *data,
                              unsigned long size, int scale) {
    jpeg_create_decompress(info);
    progress->progress_monitor = tessera_jpeg_limit_scans;
    info->progress = progress;
    jpeg_mem_src(info, data, size);
    jpeg_read_header(info, TRUE);
    info->scale_num = 1;
    info->scale_denom = (unsigned int)scale;
    info->out_color_space = JCS_EXT_RGBA;
    info->dct_method = JDCT_IFAST;
}
/// Keeps the last warning's text (as TurboJPEG reports it), for `tessera_jpeg_rows`.
static void tessera_jpeg_keep_warning(j_common_ptr info, int level) {
    if (level < 0) {
        struct tessera_jpeg_warnings *warnings = (struct tessera_jpeg_warnings *)info->err;
        (*info->err->format_message)(info, warnings->last);
        warnings->count += 1;
    }
}
/// Decodes the JPEG in `data` scaled by 1/`scale` (1, 2, 4 or 8), whose scaled size must be
/// `width`×`height`, as RGBA: calls `row(context, pixels)` for each row, top to bottom
/// (`width`×4 bytes, valid during the call). Returns 0, with the number of warnings (damaged
/// or missing data the decoder filled in) in `warnings` and the last one's text in `message`;
/// or -1 with the reason in `message`.
static inline int tessera_jpeg_rows(const unsigned char *data, unsigned long size, int scale, int width, int height,
                                    void *context, void (*row)(void *context, const unsigned char *pixels),
                                    int *warnings, char message[JMSG_LENGTH_MAX]) {
    struct jpeg_decompress_struct info;
    struct tessera_jpeg_warnings error;
    struct jpeg_progress_mgr progress;
    unsigned char *volatile pixels = NULL;
    info.err = jpeg_std_error(&error.base.manager);
    error.base.manager.error_exit = tessera_jpeg_error_exit;
    error.base.manager.emit_message = tessera_jpeg_keep_warning;
    error.base.message[0] = 0;
    error.last[0] = 0;
    error.count = 0;
    if (setjmp(error.base.jump)) {
        memcpy(message, error.base.message, JMSG_LENGTH_MAX);
        free(pixels);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    tessera_jpeg_open(&info, &progress, data, size, scale);
    jpeg_calc_output_dimensions(&info);
    if (info.output_width != (JDIMENSION)width || info.output_height != (JDIMENSION)height) {
        snprintf(error.base.message, sizeof error.base.message, "the header's size changed");
        longjmp(error.base.jump, 1);
    }
    jpeg_start_decompress(&info);
    pixels = (unsigned char *)malloc((size_t)width * 4);
    if (!pixels) { snprintf(error.base.message, sizeof error.base.message, "out of memory"); longjmp(error.base.jump, 1); }
    for (int y = 0; y < height; y++) {
        JSAMPROW rows[1] = { pixels };
        if (jpeg_read_scanlines(&info, rows, 1) != 1) { snprintf(error.base.message, sizeof error.base.message, "premature end of data"); longjmp(error.base.jump, 1); }
        row(context, pixels);
    }
    free(pixels);
    pixels = NULL;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    *warnings = error.count;
    memcpy(message, error.last, JMSG_LENGTH_MAX);
    return 0;
}
/// Decodes the `width`×`height` region at (`x`, `y`) of the JPEG in `data`, in pixels of the
/// image scaled by 1/`scale` (1, 2, 4 or 8), into `out` as RGBA (`width`×`height`×4 bytes).
/// The region must lie within the scaled image. Returns 0, or -1 with the reason in `message`.
static inline int tessera_jpeg_decode_region(const unsigned char *data, unsigned long size, int scale, int x, int y,
                                             int width, int height, unsigned char *out, char message[JMSG_LENGTH_MAX]) {
    struct jpeg_decompress_struct info;
    struct tessera_jpeg_error error;
    struct jpeg_progress_mgr progress;
    unsigned char *volatile row = NULL;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = tessera_jpeg_error_exit;
    error.manager.output_message = tessera_jpeg_no_output;
    error.message[0] = 0;
    if (setjmp(error.jump)) {
        memcpy(message, error.message, JMSG_LENGTH_MAX);
        free(row);
        jpeg_destroy_decompress(&info);
        return -1;
    }
    tessera_jpeg_open(&info, &progress, data, size, scale);
    jpeg_start_decompress(&info);
    if (x < 0 || y < 0 || width <= 0 || height <= 0 || (JDIMENSION)(x + width) > info.output_width ||
        (JDIMENSION)(y + height) > info.output_height) {
        snprintf(error.message, sizeof error.message, "the region is outside the %ux%u image", info.output_width, info.output_height);
        longjmp(error.jump, 1);
    }
    JDIMENSION left = (JDIMENSION)x, columns = (JDIMENSION)width;
    jpeg_crop_scanline(&info, &left, &columns); // widened to whole blocks: `left` <= x
    row = (unsigned char *)malloc((size_t)info.output_width * 4);
    if (!row) { snprintf(error.message, sizeof error.message, "out of memory"); longjmp(error.jump, 1); }
    if (y > 0) jpeg_skip_scanlines(&info, (JDIMENSION)y);
    for (int r = 0; r < height; r++) {
        JSAMPROW rows[1] = { row };
        if (jpeg_read_scanlines(&info, rows, 1) != 1) { snprintf(error.message, sizeof error.message, "premature end of data"); longjmp(error.jump, 1); }
        memcpy(out + (size_t)r * (size_t)width * 4, row + (size_t)(x - (int)left) * 4, (size_t)width * 4);
    }
    free(row);
    row = NULL;
    jpeg_abort_decompress(&info);
    jpeg_destroy_decompress(&info);
    return 0;
}

// PNG through libpng, one row at a time: a thumbnail of a large PNG is resampled as its rows
// arrive, without the whole image in memory (SDL2_image decodes it whole, then converts it).
struct tessera_png_source { const unsigned char *data; size_t size, at; };
struct tessera_png_error { jmp_buf jump; char message[200]; };
static void tessera_png_read(png_structp png, png_bytep out, size_t count) {
    struct tessera_png_source *source = (struct tessera_png_source *)png_get_io_ptr(png);
    if (count > source->size - source->at) png_error(png, "premature end of data");
    memcpy(out, source->data + source->at, count);
    source->at += count;
}
static void tessera_png_error_exit(png_structp png, png_const_charp message) {
    struct tessera_png_error *error = (struct tessera_png_error *)png_get_error_ptr(png);
    snprintf(error->message, sizeof error->message, "%s", message);
    longjmp(error->jump, 1);
}
static void tessera_png_no_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }
/// Decodes the PNG in `data`, whose header must say `width`×`height`, as 8-bit RGBA: calls
/// `row(context, pixels)` for each row, top to bottom (`width`×4 bytes, valid during the call).
/// Returns 0; 1 when the PNG is interlaced (its rows come whole only at the end: decode it
/// another way); or -1 with the reason in `message`.
static inline int tessera_png_rows(const unsigned char *data, size_t size, int width, int height, void *context,
                                   void (*row)(void *context, const unsigned char *pixels), char message[200]) {
    struct tessera_png_source source = { data, size, 0 };
    struct tessera_png_error error;
    error.message[0] = 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, tessera_png_error_exit, tessera_png_no_warning);
    if (!png) { snprintf(message, 200, "out of memory"); return -1; }
    png_infop info = png_create_info_struct(png);
    unsigned char *volatile pixels = NULL;
    if (!info || setjmp(error.jump)) {
        snprintf(message, 200, "%s", info ? error.message : "out of memory");
        free(pixels);
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        return -1;
    }
    png_set_read_fn(png, &source, tessera_png_read);
    png_set_user_limits(png, (png_uint_32)width, (png_uint_32)height);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != (png_uint_32)width || png_get_image_height(png, info) != (png_uint_32)height) {
        png_error(png, "the header's size changed");
    }
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) {
        png_destroy_read_struct(&png, &info, NULL);
        return 1;
    }
    int type = png_get_color_type(png, info);
    png_set_strip_16(png);
    png_set_packing(png);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    else if (!(type & PNG_COLOR_MASK_ALPHA)) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "not 8-bit RGBA after conversion");
    pixels = (unsigned char *)malloc((size_t)width * 4);
    if (!pixels) png_error(png, "out of memory");
    for (int y = 0; y < height; y++) {
        png_read_row(png, pixels, NULL);
        row(context, pixels);
    }
    free(pixels);
    pixels = NULL;
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}

// GLib and GIO (libglib2.0-dev, which SDL2's dependencies bring too): GLib's checksums (MD5 of
// thumbnail URIs, as GNOME computes them), g_filename_to_uri (URIs exactly as GNOME writes
// them), and GDBus for the desktop's file chooser portal below.
#include <gio/gio.h>
static inline GChecksumType tessera_checksum_md5(void) { return G_CHECKSUM_MD5; }

// The XDG desktop portal's file chooser (org.freedesktop.portal.FileChooser), over GDBus.
// GVariant's builders are variadic, which Swift cannot call, so the exchange is written here.

/// Whether a session bus can be reached without starting one (X11 autolaunch would spawn a
/// dbus-daemon): DBUS_SESSION_BUS_ADDRESS is set, or $XDG_RUNTIME_DIR/bus exists.
static inline int tessera_session_bus_configured(void) {
    if (g_getenv("DBUS_SESSION_BUS_ADDRESS")) return 1;
    const char *runtime = g_getenv("XDG_RUNTIME_DIR");
    if (!runtime) return 0;
    char *socket = g_build_filename(runtime, "bus", NULL);
    int found = g_file_test(socket, G_FILE_TEST_EXISTS);
    g_free(socket);
    return found;
}

/// Whether the session bus has a portal, running or startable on demand.
static inline int tessera_portal_available(void) {
    if (!tessera_session_bus_configured()) return 0;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
    if (!bus) return 0;
    int found = 0;
    GVariant *owned = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                  "NameHasOwner", g_variant_new("(s)", "org.freedesktop.portal.Desktop"),
                                                  G_VARIANT_TYPE("(b)"), G_DBUS_CALL_FLAGS_NONE, 2000, NULL, NULL);
    if (owned) { gboolean has; g_variant_get(owned, "(b)", &has); found = has; g_variant_unref(owned); }
    if (!found) {
        GVariant *names = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                      "ListActivatableNames", NULL, G_VARIANT_TYPE("(as)"), G_DBUS_CALL_FLAGS_NONE,
                                                      2000, NULL, NULL);
        if (names) {
            GVariantIter *iter; const char *name;
            g_variant_get(names, "(as)", &iter);
            while (g_variant_iter_loop(iter, "&s", &name)) if (strcmp(name, "org.freedesktop.portal.Desktop") == 0) found = 1;
            g_variant_iter_free(iter);
            g_variant_unref(names);
        }
    }
    g_object_unref(bus);
    return found;
}

typedef struct { GMainLoop *loop; guint32 response; GVariant *results; } tessera_portal_wait;

static void tessera_portal_on_response(GDBusConnection *bus, const gchar *sender, const gchar *path, const gchar *interface,
                                       const gchar *signal, GVariant *parameters, gpointer data) {
    (void)bus; (void)sender; (void)path; (void)interface; (void)signal;
    tessera_portal_wait *wait = data;
    g_variant_get(parameters, "(u@a{sv})", &wait->response, &wait->results);
    g_main_loop_quit(wait->loop);
}

/// Asks the portal to choose (`save` 0: OpenFile, with `directory` and `multiple`; 1: SaveFile,
/// suggesting `name`) and waits for the answer on the calling thread (its own main context).
/// Returns 0 with the chosen URIs in `uris` (free with g_strfreev), 1 when the user cancelled,
/// or -1 with the reason in `error`.
static inline int tessera_portal_choose(const char *title, int save, int directory, int multiple, const char *name,
                                        gchar ***uris, char *error, int error_size) {
    *uris = NULL;
    GError *failure = NULL;
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    int outcome = -1;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &failure);
    if (!bus) goto done;
    // The request's object path is predictable from our name and a token: subscribe first, so
    // that a quick answer is not missed.
    char token[32];
    snprintf(token, sizeof token, "tessera%u", g_random_int());
    gchar *sender = g_strdup(g_dbus_connection_get_unique_name(bus) + 1);
    for (gchar *c = sender; *c; c++) if (*c == '.') *c = '_';
    gchar *path = g_strdup_printf("/org/freedesktop/portal/desktop/request/%s/%s", sender, token);
    tessera_portal_wait wait = { g_main_loop_new(context, FALSE), 2, NULL };
    guint subscription = g_dbus_connection_signal_subscribe(bus, NULL, "org.freedesktop.portal.Request", "Response", path, NULL,
                                                            G_DBUS_SIGNAL_FLAGS_NONE, tessera_portal_on_response, &wait, NULL);
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE_VARDICT);
    g_variant_builder_add(&options, "{sv}", "handle_token", g_variant_new_string(token));
    g_variant_builder_add(&options, "{sv}", "modal", g_variant_new_boolean(TRUE));
    if (save) {
        if (name) g_variant_builder_add(&options, "{sv}", "current_name", g_variant_new_string(name));
    } else {
        g_variant_builder_add(&options, "{sv}", "directory", g_variant_new_boolean(directory != 0));
        g_variant_builder_add(&options, "{sv}", "multiple", g_variant_new_boolean(multiple != 0));
    }
    GVariant *reply = g_dbus_connection_call_sync(bus, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                                  "org.freedesktop.portal.FileChooser", save ? "SaveFile" : "OpenFile",
                                                  g_variant_new("(ssa{sv})", "", title, &options), G_VARIANT_TYPE("(o)"),
                                                  G_DBUS_CALL_FLAGS_NONE, -1, NULL, &failure);
    if (reply) {
        const gchar *handle;
        g_variant_get(reply, "(&o)", &handle);
        if (strcmp(handle, path) != 0) { // an older portal chose another path: listen there
            g_dbus_connection_signal_unsubscribe(bus, subscription);
            subscription = g_dbus_connection_signal_subscribe(bus, NULL, "org.freedesktop.portal.Request", "Response", handle, NULL,
                                                              G_DBUS_SIGNAL_FLAGS_NONE, tessera_portal_on_response, &wait, NULL);
        }
        g_variant_unref(reply);
        g_main_loop_run(wait.loop);
        if (wait.response == 0) {
            outcome = 0;
            if (!wait.results || !g_variant_lookup(wait.results, "uris", "^as", uris)) *uris = g_new0(gchar *, 1);
        } else if (wait.response == 1) {
            outcome = 1;
        } else {
            snprintf(error, (size_t)error_size, "the portal ended the request (response %u)", wait.response);
        }
        if (wait.results) g_variant_unref(wait.results);
    }
    g_dbus_connection_signal_unsubscribe(bus, subscription);
    g_main_loop_unref(wait.loop);
    g_free(path);
    g_free(sender);
    g_object_unref(bus);
done:
    if (failure) { snprintf(error, (size_t)error_size, "%s", failure->message); g_error_free(failure); }
    g_main_context_pop_thread_default(context);
    g_main_context_unref(context);
    return outcome;
}

#endif
