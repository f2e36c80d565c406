// Startup peer for `GalleryDemo bench startup`: Dear ImGui (Debian's 1.86, SDL_Renderer
// backend) opening a 1280x800 window with a 60-row, 6-column table, the way an app of ours
// opens on a small library. Prints {"main_ns", "window_ns", "first_frame_ns"}: CLOCK_MONOTONIC
// at main, once the window, renderer and font were made, and at the end of its first present;
// then exits. Built by scripts/build-startup-peers.sh.
#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>
#include <cstdio>
#include <cstring>
#include <ctime>

static unsigned long long monotonic_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

int main() {
  unsigned long long main_ns = monotonic_ns();
  if (SDL_Init(SDL_INIT_VIDEO) != 0) { fprintf(stderr, "SDL_Init: %s\n", SDL_GetError()); return 1; }
  SDL_Window* window = SDL_CreateWindow("imgui startup", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, 1280, 800,
                                        SDL_WINDOW_SHOWN | SDL_WINDOW_ALLOW_HIGHDPI);
  SDL_Renderer* renderer = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
  if (!window || !renderer) { fprintf(stderr, "SDL: %s\n", SDL_GetError()); return 1; }
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.Fonts->AddFontFromFileTTF("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 15.0f);
  ImGui_ImplSDL2_InitForSDLRenderer(window);
  ImGui_ImplSDLRenderer_Init(renderer);
  unsigned long long window_ns = monotonic_ns();

  static const char* kinds[] = {"Photo", "Video", "Audio", "Document", "Archive", "Other"};
  SDL_Event event;
  while (SDL_PollEvent(&event)) ImGui_ImplSDL2_ProcessEvent(&event);
  ImGui_ImplSDLRenderer_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::Begin("Library", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_MenuBar);
  if (ImGui::BeginMenuBar()) {
    ImGui::MenuItem("File");
    ImGui::MenuItem("View");
    ImGui::EndMenuBar();
  }
  if (ImGui::BeginTable("photos", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY)) {
    const char* titles[] = {"Name", "Kind", "Size", "Modified", "Rating", "Folder"};
    for (const char* title : titles) ImGui::TableSetupColumn(title);
    ImGui::TableHeadersRow();
    for (int row = 0; row < 60; row++) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn(); ImGui::Text("IMG_%04d.jpg", 1000 + row);
      ImGui::TableNextColumn(); ImGui::TextUnformatted(kinds[row % 6]);
      ImGui::TableNextColumn(); ImGui::Text("%d KB", 300 + row * 7);
      ImGui::TableNextColumn(); ImGui::Text("2026-05-%02d 10:%02d", 1 + row % 28, row);
      ImGui::TableNextColumn(); ImGui::Text("%d", row % 6);
      ImGui::TableNextColumn(); ImGui::Text("2026/05/%02d", 1 + row % 28);
    }
    ImGui::EndTable();
  }
  ImGui::End();
  ImGui::Render();
  SDL_SetRenderDrawColor(renderer, 30, 30, 30, 255);
  SDL_RenderClear(renderer);
  ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
  SDL_RenderPresent(renderer);
  // As the project does on SDL's offscreen driver: read one pixel back, so the frame's
  // rasterization is done (Mesa's threaded llvmpipe would otherwise defer it).
  const char* driver = SDL_GetCurrentVideoDriver();
  if (driver && strcmp(driver, "offscreen") == 0) {
    Uint32 pixel = 0;
    SDL_Rect one = {0, 0, 1, 1};
    SDL_RenderReadPixels(renderer, &one, SDL_PIXELFORMAT_RGBA32, &pixel, 4);
  }
  printf("{\"main_ns\":%llu,\"window_ns\":%llu,\"first_frame_ns\":%llu}\n", main_ns, window_ns, monotonic_ns());
  fflush(stdout);
  ImGui_ImplSDLRenderer_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
  SDL_DestroyRenderer(renderer);
  SDL_DestroyWindow(window);
  SDL_Quit();
  return 0;
}
