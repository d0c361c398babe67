// Issue 14, item 12: the default output channels (position and velocity of every body) are found
// through the catalogue's sorted index, not by a scan of the whole catalogue per body, which made
// `check` on 20 000 bodies take over 20 s. A prefix still gives its channels in catalogue order.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

#include "clearsim/assembly/system.hpp"
#include "clearsim/io/channels.hpp"
#include "clearsim/io/model_channels.hpp"
#include "clearsim/io/model_reader.hpp"

namespace cs {
namespace {

LoadedModel free_bodies(int n) {
  std::ostringstream yaml;
  yaml << "bodies:\n";
  for (int k = 0; k < n; ++k)
    yaml << "  b" << k << ": {mass: 1, inertia: [1, 1, 1], position: [" << k << ", 0, 0]}\n";
  return load_model_string(yaml.str(), "many.yaml");
}

TEST(ChannelScaling, DefaultChannelsOfTwentyThousandBodiesTakeLessThanFiveSeconds) {
  const LoadedModel lm = free_bodies(20000);
  const System sys(lm.model);
  const auto start = std::chrono::steady_clock::now();
  const ChannelSet channels = model_channels(lm, sys);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(channels.names().size(), 6u * 20000u + 2u);
  EXPECT_EQ(channels.names()[0], "b0.position.x");
  EXPECT_EQ(channels.names()[5], "b0.velocity.z");
  EXPECT_LT(seconds, 5.0);  // about 0.2 s; the scan took over 20 s
}

TEST(ChannelScaling, PrefixGivesItsChannelsInCatalogueOrder) {
  const LoadedModel lm = free_bodies(2);
  const System sys(lm.model);
  std::vector<std::string> expected;
  for (const std::string& name : ChannelSet::available(sys))
    if (name.rfind("system.", 0) == 0) expected.push_back(name);
  ASSERT_GT(expected.size(), 3u);
  EXPECT_EQ(ChannelSet(sys, {"system"}).names(), expected);
}

}  // namespace
}  // namespace cs
