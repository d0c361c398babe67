#include "clearsim/io/result_writer.hpp"

#include <stdexcept>

#include "clearsim/io/csv_writer.hpp"
#include "clearsim/io/hdf5_writer.hpp"

namespace cs {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool hdf5_available() {
#ifdef CLEARSIM_HAS_HDF5
  return true;
#else
  return false;
#endif
}

std::unique_ptr<ResultWriter> open_result_writer(const std::string& path,
                                                 const std::vector<std::string>& channels,
                                                 const ResultMetadata& metadata,
                                                 const std::vector<std::string>& units) {
  if (ends_with(path, ".h5") || ends_with(path, ".hdf5")) {
    if (!hdf5_available())
      throw std::runtime_error("cannot write '" + path +
                               "': this build has no HDF5 (install libhdf5-dev and rebuild)");
    return std::make_unique<Hdf5Writer>(path, channels, metadata, units);
  }
  return std::make_unique<CsvWriter>(path, channels, units);
}

std::vector<std::string> column_units(const std::vector<std::string>& channels,
                                      const std::vector<std::string>& units) {
  if (!units.empty() && units.size() != channels.size())
    throw std::invalid_argument("result file: " + std::to_string(units.size()) + " units for " +
                                std::to_string(channels.size()) + " columns");
  if (!units.empty()) return units;
  std::vector<std::string> out;
  out.reserve(channels.size());
  for (const auto& c : channels) out.push_back(channel_unit(c));
  return out;
}

std::string channel_unit(const std::string& channel) {
  // An estimate's standard deviation sigma(CHANNEL) (clearsim estimate): the channel's unit.
  if (channel.rfind("sigma(", 0) == 0 && channel.back() == ')')
    return channel_unit(channel.substr(6, channel.size() - 7));
  // A sensitivity d(CHANNEL)/d(PATH): the channel's unit per unit of the parameter, "U/[PATH]"
  // (the parameter's unit is that of the model-file value at PATH, not known here).
  if (std::string of, path; split_derivative(channel, of, path))
    return derivative_unit(channel_unit(of), "", path);
  // The quantity is the last part of the name, or the one before a component x|y|z or a gap
  // index (contact_force2).
  std::string name = channel;
  std::string quantity = name.substr(name.rfind('.') + 1);
  if (quantity == "x" || quantity == "y" || quantity == "z") {
    name = name.substr(0, name.rfind('.'));
    quantity = name.substr(name.rfind('.') + 1);
  }
  while (!quantity.empty() && quantity.back() >= '0' && quantity.back() <= '9') quantity.pop_back();
  static const std::vector<std::pair<std::string, std::string>> kUnits = {
      {"position", "m"},
      {"velocity", "m/s"},
      {"acceleration", "m/s^2"},
      {"angular_velocity", "rad/s"},
      {"angular_acceleration", "rad/s^2"},
      {"rotation", "rad"},
      {"kinetic_energy", "J"},
      {"potential_energy", "J"},
      {"total_energy", "J"},
      {"contact_force", "N"},
      {"normal_force", "N"},
      {"friction_force", "N"},
      {"film_force", "N"},
      {"force", "N"},
      {"torque", "N*m"},
      {"impulse", "N*s"},
      {"gap", "m"},
      {"penetration", "m"},
      {"min_film", "m"},
      {"side_flow", "m^3/s"},
      {"journal", "m"},
      {"eccentricity", "m"},
      {"eccentricity_ratio", "1"},
      {"contact_state", "1"},
      {"contact_onsets", "1"},
      {"impact_steps", "1"},
      {"newton_iterations", "1"},
      {"max_penetration", "m"},
      {"constraint_violation", ""},
      {"velocity_violation", ""},
      {"step_size", "s"},
      {"angle", "rad"},
      {"displacement", "m"},
      {"length", "m"},
      {"length_rate", "m/s"},
      {"overtravel", "m"},
      {"overtravel_angle", "rad"},
      {"lost_motion", "rad"},
      {"speed", "rad/s"},
      {"power", "W"},
      {"friction_torque", "N*m"},
      {"couette_torque", "N*m"},
      {"poiseuille_torque", "N*m"},
      {"bush_friction_torque", "N*m"},
      {"power_loss", "W"},
      {"friction_power", "W"},
      {"input_power", "W"},
      {"output_power", "W"},
      {"bearing_load", "N"},
      {"efficiency", "1"},
      // the power balance, power.*
      {"input", "W"},
      {"output", "W"},
      {"loss", "W"},
      {"kinetic_rate", "W"},
      {"potential_rate", "W"},
      {"stored_rate", "W"},
      {"residual", "W"},
  };
  for (const auto& [q, unit] : kUnits)
    if (q == quantity) return unit;
  return "";
}

bool split_derivative(const std::string& column, std::string& channel, std::string& path) {
  const std::size_t split = column.find(")/d(");
  if (column.rfind("d(", 0) != 0 || split == std::string::npos || column.back() != ')')
    return false;
  channel = column.substr(2, split - 2);
  path = column.substr(split + 4, column.size() - split - 5);
  return true;
}

std::string derivative_unit(const std::string& value_unit, const std::string& parameter_unit,
                            const std::string& path) {
  if (value_unit.empty()) return "";
  if (parameter_unit.empty()) return value_unit + "/[" + path + "]";
  if (parameter_unit == "1") return value_unit;
  const bool compound = parameter_unit.find_first_of("*/") != std::string::npos;
  return value_unit + "/" + (compound ? "(" + parameter_unit + ")" : parameter_unit);
}

}  // namespace cs
