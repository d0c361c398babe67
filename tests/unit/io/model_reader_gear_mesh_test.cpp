// The gear_mesh contact and the speed_torque options as read from examples/ship_reducer: the pair
// at the shapes' centre distance (a_w of reference.md §7.2), two helices on the pinion's axis,
// the contact ratios of §7.2, and the brake's power-equivalent torque on the wheel.
#include <gtest/gtest.h>

#include "clearsim/elements/contact/gear_mesh.hpp"
#include "clearsim/io/model_reader.hpp"
#include "support/example_runs.hpp"

namespace cs {
namespace {

TEST(GearMeshReader, ShipReducerPairAndLoads) {
  const LoadedModel lm = load_model_file(testing::example_path("ship_reducer"));
  EXPECT_TRUE(lm.warnings.empty());
  const auto* mesh = dynamic_cast<const contact::GearMeshContact*>(lm.model.find_element("mesh"));
  ASSERT_NE(mesh, nullptr);
  EXPECT_EQ(mesh->num_helices(), 2);
  EXPECT_NEAR(mesh->pair().a, 1.0000006, 1e-9);
  EXPECT_NEAR(mesh->pair().eps_alpha, 1.4416, 1e-4);
  EXPECT_NEAR(mesh->pair().eps_gamma, 3.4005, 1e-4);
  EXPECT_EQ(mesh->slots(), 5);
  // Both allowances of 0.15 mm: j_bn ≈ 2·0.15·cos α_n = 0.28 mm.
  EXPECT_NEAR(mesh->pair().j_bn, 0.282e-3, 0.005e-3);
  // The brake on the wheel at 720 rpm of the pinion: 350 101.6 N·m against the wheel's turn.
  const Element* brake = lm.model.find_element("brake");
  ASSERT_NE(brake, nullptr);
  BodyKinematics ground, wheel;
  wheel.R_WB = lm.model.bodies[1].R0_WB;
  wheel.w_B = wheel.R_WB.transpose() * Vec3(0, 0, -75.39822 * 27 / 151);
  EXPECT_NEAR(brake->channel_value(1, ElementInput{5.0, &ground, &wheel, nullptr}, nullptr),
              350101.6, 2.0);
}

}  // namespace
}  // namespace cs
