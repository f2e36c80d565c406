// What a draw call costs SDL's OpenGL renderer, with and without a change of scissor or
// texture before it: draws N small quads a frame and prints the mean frame time (the frame
// is read back, so it includes the rasterizer's work).
//   cc -O2 scripts/draw-call-cost.c -o /tmp/draw-call-cost $(sdl2-config --cflags --libs)
//   SDL_VIDEODRIVER=offscreen /tmp/draw-call-cost MODE DRAWS FRAMES
// MODE: 0 one state; 1 the scissor changes before each draw; 2 the texture alternates; 3 both.
// On llvmpipe (2 cores, 1280x800): 12 draws take 139-198 us a frame in mode 0 and 306-390 in
// mode 1: some 6-9 us a call, 20-26 with a change (README, "Redrawing only what changed").
#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static SDL_Texture *square(SDL_Renderer *renderer) {
    static Uint32 pixels[64 * 64];
    for (int i = 0; i < 64 * 64; i++) pixels[i] = 0xff8040ff;
    SDL_Texture *texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STATIC, 64, 64);
    SDL_UpdateTexture(texture, NULL, pixels, 64 * 4);
    SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND);
    return texture;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s MODE DRAWS FRAMES (MODE 0-3, FRAMES > 10)\n", argv[0]);
        return 2;
    }
    int mode = atoi(argv[1]), draws = atoi(argv[2]), frames = atoi(argv[3]);
    if (mode < 0 || mode > 3 || draws < 1 || draws > 100000 || frames <= 10) {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    SDL_SetHint(SDL_HINT_RENDER_DRIVER, "opengl");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "%s\n", SDL_GetError());
        return 1;
    }
    SDL_Window *window = SDL_CreateWindow("draw-call-cost", 0, 0, 1280, 800, SDL_WINDOW_OPENGL);
    SDL_Renderer *renderer = window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED) : NULL;
    if (!renderer) {
        fprintf(stderr, "%s\n", SDL_GetError());
        return 1;
    }
    SDL_Texture *textures[2] = {square(renderer), square(renderer)};
    double total = 0;
    for (int f = 0; f < frames; f++) {
        double start = now();
        for (int d = 0; d < draws; d++) {
            float x = (d % 32) * 40.f, y = (d / 32 % 20) * 40.f;
            SDL_Color white = {255, 255, 255, 255};
            SDL_Vertex v[6] = {
                {{x, y}, white, {0, 0}}, {{x + 30, y}, white, {1, 0}}, {{x + 30, y + 30}, white, {1, 1}},
                {{x, y}, white, {0, 0}}, {{x + 30, y + 30}, white, {1, 1}}, {{x, y + 30}, white, {0, 1}},
            };
            if (mode & 1) {
                SDL_Rect clip = {(int)x, (int)y, 30, 30};
                SDL_RenderSetClipRect(renderer, &clip);
            }
            SDL_RenderGeometry(renderer, textures[(mode & 2) ? d & 1 : 0], v, 6, NULL, 0);
        }
        SDL_RenderSetClipRect(renderer, NULL);
        SDL_RenderPresent(renderer);
        Uint32 pixel;
        SDL_Rect one = {0, 0, 1, 1};
        SDL_RenderReadPixels(renderer, &one, SDL_PIXELFORMAT_ABGR8888, &pixel, 4);
        if (f >= 10) total += now() - start;  // the first frames compile llvmpipe's shaders
    }
    printf("mode %d, %d draws: %.1f us a frame\n", mode, draws, total / (frames - 10) * 1e6);
    SDL_Quit();
    return 0;
}
