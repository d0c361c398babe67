// Warnings, before a run, about what its step or tolerances cannot resolve — the runs that would
// otherwise go wrong without a word (issue 14 items 10 and 11):
//   * a force stiffer than the step: ω h > 2 for the stiffest force on a body at the initial
//     state, ω = √(k/m) from the force's translational tangent (a spring of 1e12 N/m on 1 kg at
//     h = 1e-3 s: ω h = 1000 — the implicit step stays bounded but its energy is wrong);
//   * an NSGA gap that starts smaller than 1000 × newton_tol (a ball centred in a 1e-9 m
//     cavity): the position correction works to newton_tol, so impacts across it lose energy;
//   * a penalty factor (formulation ali3p or penalty) absurd for the masses in the model.
#pragma once

#include <string>
#include <vector>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/settings.hpp"

namespace cs {

// One message per problem, naming the element; empty when the settings resolve the model.
std::vector<std::string> resolution_warnings(const System& sys, const SolverSettings& settings);

}  // namespace cs
