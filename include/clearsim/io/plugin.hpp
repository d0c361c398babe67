// Optional parts of clearsim that need a large library (HDF5 results, mesh files through assimp,
// mesh bounding-volume hierarchies through FCL) live in plugins, shared modules opened on first
// use. A run that needs none of them does not pay for loading those libraries and the dozens they
// pull in (HDF5 alone brings libcurl and its TLS stack): a process linked to all of them spent
// more time starting than a short run spends stepping (docs/ARCHITECTURE.md, "Plugins").
//
// A plugin is libclearsim_<name>.so. It exports C functions and implements abstract interfaces
// whose code is all in headers (virtual calls only), so it needs no symbol of the process that
// opens it: the command line, the Python module and a program linking libclearsim.a open it the
// same way.
#pragma once

#include <string>
#include <vector>

namespace cs {

// The address of `symbol` in plugin `name`, opening the plugin on first use (once per process,
// thread-safe). Throws std::runtime_error naming the plugin, every folder searched and the
// loader's own reason if it cannot be found or opened.
void* plugin_symbol(const std::string& name, const char* symbol);

// Typed form: plugin_function<Signature>("hdf5", "clearsim_hdf5_open").
template <class Signature>
Signature* plugin_function(const std::string& name, const char* symbol) {
  return reinterpret_cast<Signature*>(plugin_symbol(name, symbol));
}

// The folders searched for plugins, in order: $CLEARSIM_PLUGIN_DIR, then beside the program or
// module containing clearsim (its plugins/ folder in a build tree, lib/clearsim of the prefix it
// was installed in), then the build tree's and the configured prefix's plugin folders.
std::vector<std::string> plugin_search_path();

}  // namespace cs
