// Startup peer for `GalleryDemo bench startup`: GTK 4 opening a 1280x800 window with a
// GtkColumnView of 60 rows and 6 columns. Prints {"first_frame_ns": N}: CLOCK_MONOTONIC when
// the window's frame clock finished painting its first frame, then quits. Needs a display.
// Built by scripts/build-startup-peers.sh (libgtk-4-dev).
#include <gtk/gtk.h>
#include <stdio.h>
#include <time.h>

static const char *kinds[] = {"Photo", "Video", "Audio", "Document", "Archive", "Other"};

static unsigned long long monotonic_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

static void setup_cell(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer column) {
    (void)factory; (void)column;
    gtk_list_item_set_child(item, gtk_label_new(NULL));
}

static void bind_cell(GtkSignalListItemFactory *factory, GtkListItem *item, gpointer column) {
    (void)factory;
    int row = (int)gtk_list_item_get_position(item);
    char text[64];
    switch (GPOINTER_TO_INT(column)) {
    case 0: snprintf(text, sizeof text, "IMG_%04d.jpg", 1000 + row); break;
    case 1: snprintf(text, sizeof text, "%s", kinds[row % 6]); break;
    case 2: snprintf(text, sizeof text, "%d KB", 300 + row * 7); break;
    case 3: snprintf(text, sizeof text, "2026-05-%02d 10:%02d", 1 + row % 28, row); break;
    case 4: snprintf(text, sizeof text, "%d", row % 6); break;
    default: snprintf(text, sizeof text, "2026/05/%02d", 1 + row % 28); break;
    }
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(item)), text);
}

static void after_paint(GdkFrameClock *clock, gpointer app) {
    (void)clock;
    printf("{\"first_frame_ns\":%llu}\n", monotonic_ns());
    fflush(stdout);
    g_application_quit(G_APPLICATION(app));
}

static void realized(GtkWidget *window, gpointer app) {
    GdkFrameClock *clock = gdk_surface_get_frame_clock(gtk_native_get_surface(GTK_NATIVE(window)));
    g_signal_connect(clock, "after-paint", G_CALLBACK(after_paint), app);
}

static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_default_size(GTK_WINDOW(window), 1280, 800);
    GtkStringList *rows = gtk_string_list_new(NULL);
    for (int i = 0; i < 60; i++) gtk_string_list_append(rows, "");
    GtkColumnView *view = GTK_COLUMN_VIEW(gtk_column_view_new(GTK_SELECTION_MODEL(gtk_single_selection_new(G_LIST_MODEL(rows)))));
    const char *titles[] = {"Name", "Kind", "Size", "Modified", "Rating", "Folder"};
    for (int c = 0; c < 6; c++) {
        GtkListItemFactory *factory = gtk_signal_list_item_factory_new();
        g_signal_connect(factory, "setup", G_CALLBACK(setup_cell), GINT_TO_POINTER(c));
        g_signal_connect(factory, "bind", G_CALLBACK(bind_cell), GINT_TO_POINTER(c));
        gtk_column_view_append_column(view, gtk_column_view_column_new(titles[c], factory));
    }
    GtkWidget *scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), GTK_WIDGET(view));
    gtk_window_set_child(GTK_WINDOW(window), scroller);
    g_signal_connect(window, "realize", G_CALLBACK(realized), app);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    GtkApplication *app = gtk_application_new("org.tessera.startuppeer", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    return status;
}
