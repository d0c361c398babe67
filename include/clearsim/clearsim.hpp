// The public API in one include: read a model file (with overrides), build its System, step it
// with a Simulation (or run a whole analysis), read any output channel.
//
//   cs::LoadedModel lm = cs::load_model_file("model.yaml", {{"solver.end", "0.05"}});
//   cs::System sys(lm.model);
//   cs::ChannelSet channels = cs::model_channels(lm, sys);  // or ChannelSet(sys, {"a.b.x"})
//   cs::Simulation sim(sys, lm.run);
//   std::vector<std::string> notes;
//   if (!sim.initialize(notes)) throw std::runtime_error(sim.stats().message);
//   std::vector<double> values;
//   while (sim.state().t < 0.05 - 0.5 * sim.step_size() && sim.step())
//     channels.evaluate(sim.state(), sim.stats(), values);
//
// examples/cpp_api/main.cpp is a complete program.
#pragma once

#include "clearsim/assembly/system.hpp"      // IWYU pragma: export
#include "clearsim/io/channels.hpp"          // IWYU pragma: export
#include "clearsim/io/csv_writer.hpp"        // IWYU pragma: export
#include "clearsim/io/model_channels.hpp"    // IWYU pragma: export
#include "clearsim/io/model_reader.hpp"      // IWYU pragma: export
#include "clearsim/io/progress.hpp"          // IWYU pragma: export
#include "clearsim/model/model_builder.hpp"  // IWYU pragma: export
#include "clearsim/solvers/simulation.hpp"   // IWYU pragma: export
#include "clearsim/version.hpp"              // IWYU pragma: export
