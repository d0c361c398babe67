// The `bearing_loss` map of an ideal revolute or cylindrical joint (docs/model-format.md,
// "Bearing loss on an ideal joint"): a lubricated journal bearing's friction torque without its
// clearance dynamics (joints/joint_bearing_loss.hpp).
#include "model_reader_laws.hpp"
#include "model_reader_sections.hpp"

namespace cs::model_file {

namespace {

const std::vector<std::string> kBearingLossKeys = {"model",  "viscosity", "radius",
                                                   "length", "clearance", "cavitation"};

using lubrication::BearingModel;

}  // namespace

joints::JointBearingLoss read_bearing_loss(const Cursor& c) {
  const MapView m(c,
                  "a bearing loss map {model: petroff|short|long|finite, viscosity: μ [Pa·s], "
                  "radius: R [m], length: L [m], clearance: c [m]}");
  m.allow_only("in a bearing loss model", kBearingLossKeys);
  joints::JointBearingLoss loss;
  const Cursor model_c = m.need("model", "the film model: petroff, short, long or finite");
  const std::vector<std::pair<std::string, int>> models = {
      {"petroff", -1},
      {"short", static_cast<int>(BearingModel::kShort)},
      {"long", static_cast<int>(BearingModel::kLong)},
      {"finite", static_cast<int>(BearingModel::kFinite)}};
  const int model = read_choice(model_c, models);
  loss.petroff = model < 0;
  auto& b = loss.bearing;
  b.model = loss.petroff ? BearingModel::kShort : static_cast<BearingModel>(model);
  b.viscosity = read_positive(m.need("viscosity", "the dynamic viscosity μ [Pa·s]"), "Pa·s");
  b.radius = read_positive(m.need("radius", "the journal radius R [m]"), "m");
  b.length = read_positive(m.need("length", "the bearing length L [m]"), "m");
  const Cursor clearance_c = m.need("clearance", "the radial clearance c [m]");
  b.clearance = read_positive(clearance_c, "m");
  if (b.clearance >= b.radius)
    clearance_c.fail(clearance_c.path() +
                     ": expected a radial clearance below the journal "
                     "radius " +
                     format_number(b.radius) + " m, found " + format_number(b.clearance) + " m");
  b.cavitation = read_cavitation(m, b.model);
  return loss;
}

}  // namespace cs::model_file
