// The plugin loader (include/clearsim/io/plugin.hpp): a missing plugin is an error that names it,
// every folder searched and the way out; CLEARSIM_PLUGIN_DIR is searched first; the shipped
// plugins open and give their entry points.
#include "clearsim/io/plugin.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "clearsim/geometry/mesh_bvh_plugin.hpp"
#include "clearsim/geometry/mesh_file_plugin.hpp"

namespace cs {
namespace {

TEST(Plugins, AMissingPluginNamesItselfTheFoldersAndTheWayOut) {
  try {
    plugin_symbol("no_such_part", "clearsim_no_such_part_open");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("no_such_part plugin (libclearsim_no_such_part.so) was not found"),
              std::string::npos)
        << what;
    for (const auto& folder : plugin_search_path())
      EXPECT_NE(what.find("\n  " + folder), std::string::npos) << folder << " in " << what;
    EXPECT_NE(what.find("CLEARSIM_PLUGIN_DIR"), std::string::npos) << what;
  }
}

TEST(Plugins, TheEnvironmentsFolderComesFirst) {
  ASSERT_EQ(setenv("CLEARSIM_PLUGIN_DIR", "/opt/elsewhere", 1), 0);
  const auto folders = plugin_search_path();
  unsetenv("CLEARSIM_PLUGIN_DIR");
  ASSERT_FALSE(folders.empty());
  EXPECT_EQ(folders.front(), "/opt/elsewhere");
}

TEST(Plugins, AnUnknownSymbolOfAShippedPluginIsAVersionError) {
  EXPECT_NE(plugin_symbol("fcl", kMeshBvhBackendSymbol), nullptr);
  EXPECT_NE(plugin_symbol("assimp", kMeshFileReadSymbol), nullptr);
  try {
    plugin_symbol("fcl", "clearsim_fcl_from_the_future");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("another clearsim version"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace cs
