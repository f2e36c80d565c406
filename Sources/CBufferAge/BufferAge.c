#include "CBufferAge.h"
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include <string.h>

int tessera_glx_back_buffer_age(struct SDL_Window *window) {
    typedef const char *(*QueryExtensions)(void *display, int screen);
    typedef void (*QueryDrawable)(void *display, unsigned long drawable, int attribute, unsigned int *value);
    static int supported = -1; /* asking a GLX without the extension would raise an X error */
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    QueryDrawable query = (QueryDrawable)SDL_GL_GetProcAddress("glXQueryDrawable");
    if (supported < 0) {
        QueryExtensions extensions = (QueryExtensions)SDL_GL_GetProcAddress("glXQueryExtensionsString");
        const char *names = extensions ? extensions(info.info.x11.display, 0) : NULL;
        supported = query && names && strstr(names, "GLX_EXT_buffer_age") ? 1 : 0;
    }
    if (!supported) return 0;
    unsigned int age = 0;
    query(info.info.x11.display, info.info.x11.window, 0x20F4 /* GLX_BACK_BUFFER_AGE_EXT */, &age);
    return (int)age;
}
