// The bearing-loss channels of a lubricated journal (bearing_losses.hpp), shared by the
// compliant and the unilateral lubricated treatments.
#include <stdexcept>

#include "clearsim/elements/contact/compliant_contact.hpp"
#include "clearsim/elements/lubrication/bearing_losses.hpp"

namespace cs::contact {

const std::vector<std::string>& Lubrication::loss_channel_names() {
  static const std::vector<std::string> names = {
      "friction_torque", "couette_torque", "poiseuille_torque", "bush_friction_torque",
      "power_loss",      "side_flow",      "min_film"};
  return names;
}

int Lubrication::num_loss_channels() const {
  return kind == LubricationKind::kJournalBearing ? static_cast<int>(loss_channel_names().size())
                                                  : 0;
}

double Lubrication::loss_channel(int q, const Journal<double>& J, const Pose<double>& i,
                                 const Pose<double>& j) const {
  const double w_i = J.axis.dot(i.omega_W()), w_j = J.axis.dot(j.omega_W());
  const lubrication::BearingLosses l = lubrication::bearing_losses(bearing, J, w_i, w_j);
  switch (q) {
    case 0:
      return l.journal_torque;
    case 1:
      return l.couette_torque;
    case 2:
      return l.poiseuille_torque;
    case 3:
      return l.bush_torque;
    case 4:
      return l.power_loss;
    case 5:
      return l.side_flow;
    case 6:
      return l.min_film;
    default:
      throw std::out_of_range("Lubrication::loss_channel: no channel " + std::to_string(q));
  }
}

}  // namespace cs::contact
