#ifndef TESSERA_CGLPRESENT_H
#define TESSERA_CGLPRESENT_H

struct SDL_Window;

// What the GL driver says about presenting `window`'s frames, for redrawing only damage. In C
// apart from CSDL2: SDL_syswm.h brings X11's names (`Window`, `Font`, `Display`) into every
// module that would import it.

/// How many frames old the pixels in `window`'s back buffer are, as GLX_EXT_buffer_age says
/// (1: the last frame's, 2: the one before; 0: unknown). 0 unless the window is an X11 one
/// whose GLX names the extension.
int tessera_glx_back_buffer_age(struct SDL_Window *window);

/// 1 when `window` is an X11 window whose GLX offers GLX_MESA_copy_sub_buffer and whose GL
/// renderer is a software one (llvmpipe, softpipe, swrast), with its context current. There a
/// swap copies the whole image to the X server; copying only the regions that changed shows the
/// same picture, and leaves the back buffer holding the frame.
int tessera_glx_can_copy_sub_buffer(struct SDL_Window *window);

/// Copies the `width`×`height` region at (`x`, `y`) of `window`'s back buffer to the window, in
/// GL's coordinates (`y` from the bottom). Call only where `tessera_glx_can_copy_sub_buffer` said 1.
void tessera_glx_copy_sub_buffer(struct SDL_Window *window, int x, int y, int width, int height);

#endif
