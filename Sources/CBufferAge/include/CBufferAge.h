#ifndef TESSERA_CBUFFERAGE_H
#define TESSERA_CBUFFERAGE_H

struct SDL_Window;

/// How many frames old the pixels in `window`'s back buffer are, as GLX_EXT_buffer_age says
/// (1: the last frame's, 2: the one before; 0: unknown). 0 unless the window is an X11 one
/// whose GLX names the extension. (Kept apart from CSDL2: SDL_syswm.h brings X11's names,
/// `Window`, `Font`, `Display`, into every module that would import it.)
int tessera_glx_back_buffer_age(struct SDL_Window *window);

#endif
