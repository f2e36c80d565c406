#ifndef TESSERA_CSDL2_SHIM_H
#define TESSERA_CSDL2_SHIM_H

#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <SDL2/SDL_image.h>
#include <turbojpeg.h>
#include <zlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <sys/fsuid.h>

// Function-like and compound macros that Swift does not import.

static inline int tessera_windowpos_centered(void) { return (int)SDL_WINDOWPOS_CENTERED; }
static inline int tessera_windowpos_undefined(void) { return (int)SDL_WINDOWPOS_UNDEFINED; }
static inline Uint32 tessera_button_mask(int button) { return SDL_BUTTON(button); }
static inline Uint32 tessera_touch_mouse_id(void) { return SDL_TOUCH_MOUSEID; }
static inline Sint64 tessera_mouse_touch_id(void) { return (Sint64)SDL_MOUSE_TOUCHID; }
static inline Uint32 tessera_pixelformat_abgr8888(void) { return SDL_PIXELFORMAT_ABGR8888; }
static inline Uint32 tessera_pixelformat_rgba32(void) { return SDL_PIXELFORMAT_RGBA32; }
static inline Uint32 tessera_pixelformat_argb8888(void) { return SDL_PIXELFORMAT_ARGB8888; }

/// Lowers the calling thread's scheduling priority by `nice` (Linux: per-thread niceness).
static inline void tessera_nice_current_thread(int nice) { setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice); }

/// Sets the calling thread's filesystem user ID (tests use it to see folders as an ordinary
/// user would); returns the previous one.
static inline int tessera_set_filesystem_uid(int uid) { return setfsuid((uid_t)uid); }

#endif
