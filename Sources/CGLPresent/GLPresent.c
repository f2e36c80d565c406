#include "CGLPresent.h"
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <string.h>

typedef const char *(*QueryExtensions)(void *display, int screen);
typedef void (*QueryDrawable)(void *display, unsigned long drawable, int attribute, unsigned int *value);
typedef void (*CopySubBuffer)(void *display, unsigned long drawable, int x, int y, int width, int height);
typedef const unsigned char *(*GetString)(unsigned int name);

/// The X11 display and window of `window`; 0 when it is not an X11 window.
static int x11_window(SDL_Window *window, void **display, unsigned long *drawable) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    *display = info.info.x11.display;
    *drawable = info.info.x11.window;
    return 1;
}

/// Whether the display's GLX names `extension` (asking a GLX for what it lacks raises an X error).
static int glx_has(void *display, const char *extension) {
    QueryExtensions extensions = (QueryExtensions)SDL_GL_GetProcAddress("glXQueryExtensionsString");
    const char *names = extensions ? extensions(display, 0) : NULL;
    return names && strstr(names, extension) != NULL;
}

int tessera_glx_back_buffer_age(struct SDL_Window *window) {
    static int supported = -1;
    void *display;
    unsigned long drawable;
    if (!x11_window(window, &display, &drawable)) return 0;
    QueryDrawable query = (QueryDrawable)SDL_GL_GetProcAddress("glXQueryDrawable");
    if (supported < 0) supported = query && glx_has(display, "GLX_EXT_buffer_age");
    if (!supported) return 0;
    unsigned int age = 0;
    query(display, drawable, 0x20F4 /* GLX_BACK_BUFFER_AGE_EXT */, &age);
    return (int)age;
}

int tessera_glx_can_copy_sub_buffer(struct SDL_Window *window) {
    void *display;
    unsigned long drawable;
    if (!x11_window(window, &display, &drawable) || SDL_GL_GetCurrentWindow() != window) return 0;
    if (!SDL_GL_GetProcAddress("glXCopySubBufferMESA") || !glx_has(display, "GLX_MESA_copy_sub_buffer")) return 0;
    GetString get_string = (GetString)SDL_GL_GetProcAddress("glGetString");
    const char *renderer = get_string ? (const char *)get_string(0x1F01 /* GL_RENDERER */) : NULL;
    return renderer && (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe") || strstr(renderer, "swrast"));
}

void tessera_glx_copy_sub_buffer(struct SDL_Window *window, int x, int y, int width, int height) {
    void *display;
    unsigned long drawable;
    CopySubBuffer copy = (CopySubBuffer)SDL_GL_GetProcAddress("glXCopySubBufferMESA");
    if (copy && x11_window(window, &display, &drawable)) copy(display, drawable, x, y, width, height);
}
