// The nonsmooth part of the NSGA step (Brüls, Acary & Cardona 2014; decoupled as in Cosimo et
// al. 2020; reference.md §1.3–1.6, §1.8), after the smooth generalized-α step has given
// (q̃, ṽ):
//
//  position correction  q = q̃ ∘ exp(U),  M U + Bᵀν_B − Gᵀν_N = 0,  Φ(q) = 0,
//                       ν_N,j − max(0, ν_N,j − r_j g_N,j(q)) = 0        (0 ≤ g_N ⊥ ν_N ≥ 0)
//  velocity jump        v = ṽ + W,     M W + Bᵀμ − GᵀΛ_N = 0,    B v + Φ_t = 0,
//                       for g_N,j(q̃) ≤ 0:  Λ_j − max(0, Λ_j − r_j(G_j v + e_j G_j(q_n) v_n)) = 0,
//                       otherwise Λ_j = 0                             (Newton impact law)
//
// Both are solved by semismooth Newton in primal–dual active-set form (Alart–Curnier), which
// converges when the active set settles. r_j = 1/(G_j M⁻¹ G_jᵀ), the effective mass of the
// contact, balances r·g against ν (reference.md §1.3: r changes convergence, not the answer).
#pragma once

#include <memory>
#include <string>

#include "clearsim/assembly/system.hpp"
#include "clearsim/solvers/correction_space.hpp"
#include "clearsim/solvers/linear_system.hpp"
#include "clearsim/solvers/mass_saddle_schur.hpp"

namespace cs {

struct NonsmoothReport {
  bool ok = true;
  int position_iterations = 0;
  int velocity_iterations = 0;
  int factorizations = 0;
  // Velocity jumps solved again plastically because Newton's law at several contacts would have
  // created kinetic energy (see velocities()).
  int plastic_impacts = 0;
  std::string message;
};

// What the smooth step already knows that the corrections can start from (all optional; small
// dense models only).
struct CorrectionHints {
  // A factorization of the same system layout ([M Bᵀ −Gᵀ; B; G_A] with A = *chord_active) at a
  // nearby configuration — the smooth step's mass iteration at the predictor — used as a chord
  // while it contracts.
  MassSaddleSchur* chord = nullptr;
  const std::vector<char>* chord_active = nullptr;
  // Φ(q̃) and B(q̃) of the bilateral joints from the smooth step's last evaluation: the position
  // correction's first iterate uses them instead of evaluating every joint again (the gaps are
  // still evaluated there).
  const MatX* B = nullptr;
  const VecX* phi = nullptr;
};

// What one correct() decided and solved, kept when asked (keep_record) for its tangent
// (sensitivity/correction_tangent.hpp), which differentiates the corrections with these active
// sets frozen.
struct CorrectionRecord {
  State smooth;  // the input (q̃, ṽ)
  // The position correction: q = q̃ ∘ exp(U) with multipliers ν_B, ν_N; its active set, the gaps
  // at q and at q̃ (g ≤ 0 at q̃ makes a contact a candidate of the jump).
  VecX U, nu_B, nu_N, g, g_tilde;
  std::vector<char> position_active;
  // The velocity jump v = ṽ + W with impulses μ, Λ_N; its candidates and active set, the
  // restitution each contact's law used (0: plastic), the pre-impact normal velocity
  // ġ⁻ = G(q_n) v_n, the law's value G v + e ġ⁻ after the jump, and how far −ġ⁻ is from the
  // speed below which an impact is plastic (its sign decides; restitution_threshold).
  VecX W, mu, Lambda, e_eff, gdot_pre, law, resolve_margin;
  std::vector<char> candidate, jump_active;
  VecX r_eff;  // each contact's effective mass
};

class NonsmoothCorrection {
 public:
  // tol and max_iterations for both semismooth Newton loops; restitution_threshold as in
  // SolverSettings (negative: one step's change of the smooth normal velocity).
  NonsmoothCorrection(const System& sys, double tol, int max_iterations,
                      double restitution_threshold);
  // The same in the coordinates of `space` (kept by reference; not body poses: frictionless
  // contacts only, and the dense LU of the whole system).
  NonsmoothCorrection(const System& sys, CorrectionSpace& space, double tol, int max_iterations,
                      double restitution_threshold);

  // x holds (q̃, ṽ) on entry and (q_{n+1}, v_{n+1}) on return, with x.nu, x.Lambda and
  // x.contact filled. `prev` is the state at t_n (for the pre-impact normal velocity).
  NonsmoothReport correct(const State& prev, State& x, const CorrectionHints& hints = {});

  // The last dense LU the last correct() factorized ([M Bᵀ −Gᵀ; B; G_A], identity rows for the
  // other gaps, at a configuration of that step) and its active set A, or null (none, or not a
  // dense LU). A later step may use it as a chord.
  const LinearSystem* last_factorization(const std::vector<char>** active) const;

  // Keep a CorrectionRecord of every correct() (off by default: it copies the state).
  void keep_record(bool on) { keep_record_ = on; }
  const CorrectionRecord& record() const { return record_; }

 private:
  // `first`: the call that starts at the smooth prediction q̃ (its gaps g(q̃) are kept: they
  // decide which contacts may impact). Returns with Φ, B, g, G evaluated at the final x.
  bool positions(State& x, NonsmoothReport& rep, bool first);
  // The position correction's active set at the current iterate (max rule) and its residual.
  double position_active_set(const State& x);
  // How far the momentum rows M U + Bᵀν_B − Gᵀν_N are from zero at the current iterate, as a
  // displacement [m or rad] (see the definition).
  double momentum_misfit();
  // The position correction's matrix for iteration `it` (a chord, the factorization kept, or a
  // fresh one; `slow`: the last iteration contracted slowly); false with rep.message.
  bool position_matrix(int it, bool first, bool slow, double t, NonsmoothReport& rep);
  // One increment of (U, ν_B, ν_N) from the residuals at the current iterate.
  void position_increment(bool first_iterate);
  // Uses B, G, Φ_t at x as the last positions() call left them.
  bool velocities(const State& prev, State& x, NonsmoothReport& rep);
  // The velocity jump's state across its passes: the factorization in use (or the chord),
  // whether it is from an earlier step, the tolerance, the step size and the solves so far.
  struct JumpSolve;
  // The jump's candidates, carried contacts, smooth velocity ṽ = v, effective restitution and
  // first active set.
  void start_jump(const State& x, const VecX& v);
  // One pass of the jump for the current restitution: W, μ, Λ solved with the active set
  // updated until it settles (v = ṽ + W on return); false with rep.message.
  bool jump_pass(State& x, VecX& v, JumpSolve& js, NonsmoothReport& rep);
  // The max rule on the converged jump; true if the active set changed.
  bool update_jump_active_set(const State& x, double h);
  // Open, contact or impact per gap at q_{n+1}, v_{n+1} = v; G v into x.gdot_N.
  void classify_contacts(State& x, const VecX& v) const;
  // Velocity jump with Coulomb friction at the closed contacts (Galvez et al. 2020; reference.md
  // §4.5): Λ_T − proj_{D(μΛ_N)}(Λ_T − r v_T) = 0, by semismooth Newton on all unknowns.
  bool friction(const State& x_smooth, State& x, const std::vector<char>& candidate,
                const VecX& gdot_pre, NonsmoothReport& rep);
  // Contacts that were sticking keep their material contact points together over the step: the
  // smallest mass-weighted correction that cancels the tangential displacement since t_n,
  // keeping joints and closed gaps, unless that needs more than μ times the normal multiplier
  // (then the contact slips). Without it the smooth step lets a sticking body creep by O(h²)
  // per step under a tangential load.
  void hold_sticking(const State& prev, State& x);
  // A factorised [M Bᵀ −Gᵀ; B 0 0; G_A 0 0] (identity rows for the inactive gaps) and the active
  // set it was built for. Small models use the Schur complement of the constant block-diagonal
  // M (MassSaddleSchur), large ones a sparse LU of the whole matrix.
  struct Factorization {
    explicit Factorization(const Model& model) : schur(model) {}
    LinearSystem ls;        // sparse path
    MassSaddleSchur schur;  // dense path
    MatX J, G;              // dense path: the rows [B; G_A] factored, and G at that time
    std::vector<char> active;
    bool valid = false;
  };
  struct JumpSolve {
    Factorization* f = nullptr;
    bool stale = false;
    MassSaddleSchur* chord = nullptr;
    double vtol = 0.0, h = 0.0;
    int solves = 0;
  };
  void size_workspace();  // the constructors' common part
  // Φ, Φ_t, B and g, G at the configuration of x (into phi_, phi_t_, B_, g_, G_).
  void jacobians(const State& x);
  bool factor(Factorization& f, const std::vector<char>& active);
  // rhs_.head(n) = −(M x + Bᵀμ − GᵀΛ), the momentum residual of both corrections (x = U or W);
  // `all_zero` when x, μ and Λ are all still zero (skips the products).
  void momentum_residual(const VecX& x, const VecX& mu, const VecX& Lambda, bool all_zero);
  // factor(f, active_), counted in rep; if singular, rep says "singular matrix in the <what> at
  // t = …; closed contacts: …".
  bool factor_or_report(Factorization& f, const char* what, double t, NonsmoothReport& rep);
  // Solves f's system in place: rhs = [r_q; r_B; r_N] on entry, the increments on return.
  void solve(Factorization& f, VecX& rhs);
  void effective_masses();
  // True when the frictionless jump just solved has impulses at two or more contacts, Newton's
  // law with e > 0 at one of them, and normal impulses doing positive work.
  bool plastic_would_be_safer() const;
  // The names of the gaps flagged in `active`, for failure messages.
  std::string closed_gaps(const std::vector<char>& active) const;

  const System& sys_;
  std::unique_ptr<CorrectionSpace> own_space_;  // body poses, when no space was given
  CorrectionSpace& space_;
  double tol_;
  int max_iterations_;
  double restitution_threshold_;
  bool dense_;  // a small model: refactored at every step's first iterate
  bool schur_;  // dense_ in body poses: through the Schur complement of the block-diagonal M
  Factorization pos_, vel_;
  std::vector<BodyKinematics> kin_;  // the frictional paths' body kinematics
  MatX B_, G_;
  VecX phi_, phi_t_, g_, r_eff_, g_tilde_, e_eff_;
  // Workspace, sized once.
  State base_;
  VecX U_, W_, nu_B_, mu_B_, nu_N_, Lambda_, rhs_, Mx_, gdot_, gdot_pre_, v_smooth_, gdot_smooth_;
  std::vector<char> active_, previous_, candidate_, carried_;
  CorrectionHints hints_;            // see correct()
  MassSaddleSchur* hint_ = nullptr;  // hints_.chord on the dense path
  const std::vector<char>* hint_active_ = nullptr;
  MassSaddleSchur* chord_ = nullptr;     // the hint, while positions() uses it
  const Factorization* last_ = nullptr;  // see last_factorization()
  bool keep_record_ = false;
  CorrectionRecord record_;
};

}  // namespace cs
