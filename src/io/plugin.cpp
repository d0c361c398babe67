#include "clearsim/io/plugin.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

// The build tree's plugin folder, the configured prefix's, and the plugin folder relative to the
// folders an installed program or Python module lives in (cmake/plugins.cmake).
#include "clearsim_plugin_paths.hpp"

namespace cs {
namespace {

namespace fs = std::filesystem;

// The folder of the executable or shared module this code is linked into.
fs::path own_image_folder() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&plugin_search_path), &info) == 0 || !info.dli_fname)
    return {};
  std::error_code ec;
  const fs::path image = fs::canonical(info.dli_fname, ec);
  return ec ? fs::path(info.dli_fname).parent_path() : image.parent_path();
}

void add_unique(std::vector<std::string>& list, const fs::path& folder) {
  if (folder.empty()) return;
  const std::string s = folder.lexically_normal().string();
  for (const auto& existing : list)
    if (existing == s) return;
  list.push_back(s);
}

struct OpenPlugins {
  std::mutex mutex;
  std::map<std::string, void*> handles;  // never closed: their code may be running
};

OpenPlugins& open_plugins() {
  static OpenPlugins plugins;
  return plugins;
}

void* open_plugin(const std::string& name) {
  const std::string file = "libclearsim_" + name + ".so";
  std::ostringstream reasons;
  for (const auto& folder : plugin_search_path()) {
    const fs::path path = fs::path(folder) / file;
    std::error_code ec;
    if (!fs::exists(path, ec)) continue;
    if (void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
    const char* why = dlerror();
    reasons << "\n  " << path.string() << ": " << (why ? why : "cannot be opened");
  }
  std::ostringstream message;
  message << "clearsim's " << name << " plugin (" << file << ") ";
  if (reasons.str().empty()) {
    message << "was not found; searched:";
    for (const auto& folder : plugin_search_path()) message << "\n  " << folder;
  } else {
    message << "could not be opened:" << reasons.str();
  }
  message << "\nReinstall clearsim, or set CLEARSIM_PLUGIN_DIR to the folder holding " << file
          << " (docs/install.md)";
  throw std::runtime_error(message.str());
}

}  // namespace

std::vector<std::string> plugin_search_path() {
  std::vector<std::string> folders;
  if (const char* env = std::getenv("CLEARSIM_PLUGIN_DIR"); env && *env) add_unique(folders, env);
  if (const fs::path own = own_image_folder(); !own.empty()) {
    add_unique(folders, own / "plugins");
    if (*CLEARSIM_PLUGIN_FROM_BIN) add_unique(folders, own / CLEARSIM_PLUGIN_FROM_BIN);
    if (*CLEARSIM_PLUGIN_FROM_PYTHON) add_unique(folders, own / CLEARSIM_PLUGIN_FROM_PYTHON);
  }
  add_unique(folders, CLEARSIM_PLUGIN_BUILD_DIR);
  add_unique(folders, CLEARSIM_PLUGIN_INSTALL_DIR);
  return folders;
}

void* plugin_symbol(const std::string& name, const char* symbol) {
  OpenPlugins& plugins = open_plugins();
  const std::lock_guard lock(plugins.mutex);
  void*& handle = plugins.handles[name];
  if (!handle) {
    try {
      handle = open_plugin(name);
    } catch (...) {
      plugins.handles.erase(name);
      throw;
    }
  }
  dlerror();
  void* address = dlsym(handle, symbol);
  if (!address)
    throw std::runtime_error("clearsim's " + name + " plugin has no symbol '" + symbol +
                             "': it belongs to another clearsim version; reinstall clearsim");
  return address;
}

}  // namespace cs
