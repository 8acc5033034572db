#include "studies/snap/noether_momentum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "core/format.hpp"
#include "core/growth.hpp"

namespace tb::snap {

double noether_rounding_bound(const SnapRun& r) {
  if (!std::isfinite(r.noether_momentum_err_max) || !std::isfinite(r.noether_momentum0)) return kNoNumber;
  const double scale = std::max(1.0, std::abs(r.noether_momentum0));
  return kGrowthSignalOverFloor * 8.0 * std::numeric_limits<double>::epsilon() * scale * double(std::max(1L, r.counters.steps));
}

bool within_noether_rounding(const SnapRun& r) {
  const double bound = noether_rounding_bound(r);
  return r.outcome.ok() && std::isfinite(bound) && r.noether_momentum_err_max <= bound;
}

bool noether_momentum_at_rounding(const std::vector<const SnapPoint*>& refined) {
  if (refined.size() < 2) return false;
  for (const SnapPoint* p : refined)
    if (!within_noether_rounding(p->measured)) return false;
  return refined.back()->measured.noether_momentum_err_max >= 0.5 * refined.front()->measured.noether_momentum_err_max;
}

namespace {

// One method's runs (integrator and discretisation: its row label), in refinement order.
struct MomentumRuns {
  std::string label;
  std::string integrator;
  bool compliant = false;  // a penalty (compliant) discretisation: no impact law
  std::vector<const SnapPoint*> runs;
};

std::string listed_words(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
  return out;
}

// "h = 0.002: 0.00275; ...; local slopes 0.25, 1.05, ..." (a fixed step's, between successive steps).
std::string values_and_slopes(const MomentumRuns& m) {
  std::string out, slopes;
  const SnapPoint* previous = nullptr;
  for (const SnapPoint* p : m.runs) {
    const SnapRun& r = p->measured;
    out += (out.empty() ? "" : "; ") + p->setting() + ": " +
           (r.outcome.ok() ? number_or_dash(r.noether_momentum_err_max) : "failed (" + std::string(r.outcome.word()) + ")");
    if (previous && !p->adaptive() && r.outcome.ok() && previous->measured.outcome.ok() && r.noether_momentum_err_max > 0.0 &&
        previous->measured.noether_momentum_err_max > 0.0)
      slopes += (slopes.empty() ? "" : ", ") + format_g(std::log(previous->measured.noether_momentum_err_max / r.noether_momentum_err_max) /
                                                                 std::log(previous->h / p->h), 3);
    previous = p;
  }
  return out + (slopes.empty() ? "" : "; local slopes in h " + slopes);
}

}  // namespace

void write_noether_momentum(std::ostringstream& md, const Case& c, const std::vector<const SnapPoint*>& of_case) {
  if (!c.model->has_momentum_map()) return;
  std::vector<MomentumRuns> methods;
  for (const SnapPoint* p : of_case) {
    if (p->role != SnapRole::Compared) continue;
    const std::string label = p->key.label();
    auto it = std::find_if(methods.begin(), methods.end(), [&](const MomentumRuns& m) { return m.label == label; });
    if (it == methods.end()) {
      methods.push_back({label, p->key.integrator->name, p->key.discretisation == "penalty", {}});
      it = methods.end() - 1;
    }
    it->runs.push_back(p);
  }
  for (MomentumRuns& m : methods)
    std::stable_sort(m.runs.begin(), m.runs.end(), [](const SnapPoint* a, const SnapPoint* b) {
      return a->adaptive() ? a->rtol > b->rtol : a->h > b->h;  // coarsest first
    });
  std::vector<std::string> rounding, truncation;
  std::set<std::string> at_rounding, falling;  // the integrators (their impact-law runs) in each group
  double rounding_max = 0.0;
  for (const MomentumRuns& m : methods) {
    if (noether_momentum_at_rounding(m.runs)) {
      rounding.push_back(m.label);
      for (const SnapPoint* p : m.runs) rounding_max = std::max(rounding_max, p->measured.noether_momentum_err_max);
      if (!m.compliant) at_rounding.insert(m.integrator);
    } else {
      truncation.push_back(m.label + " (" + values_and_slopes(m) + ")");
      if (!m.compliant) falling.insert(m.integrator);
    }
  }
  md << "\n**The angular momentum about the pivot** (column max |π − π0|: the component normal to the plane of motion, "
        "about e2, not the vertical π3 of the models that turn about e3). Without gravity the rotations of the plane about "
        "the pivot are a symmetry and π = m (z v_x − x v_z) its Noether momentum: the flights keep it (no force), and so "
        "does Newton's impulse along the string, which has no moment about the pivot. A method's errors are read by "
        "their mechanism, over its steps or tolerances: rounding where every run stays within "
     << format_g(kGrowthSignalOverFloor) << " times Brouwer's bound for biased rounding, 8 ε max(1, |π0|) n over its n steps "
        "(linear in n: the rounding of the schemes that keep π grows here with the step count faster than √n), and its "
        "finest run's error is at least half its coarsest's; a truncation error instead falls as the step or the "
        "tolerance is refined. One run's size cannot tell the two apart.\n\n";
  if (!rounding.empty())
    md << "- Rounding, not falling with the refinement (π is kept in exact arithmetic): " << listed_words(rounding) << "; at most "
       << number_or_dash(rounding_max) << " N m s over all their runs.\n";
  if (!truncation.empty()) md << "- Falling with the refinement (π is not kept; the error is truncation): " << listed_words(truncation) << ".\n";
  md << "\nThe mechanisms, for the schemes the data above place in either group:\n\n";
  if (at_rounding.count("moreau_jean"))
    md << "- Moreau–Jean (θ = ½) poses its impact at q_{k+1/2} = q_k + (h/2) v_k, with the impulse along the string "
          "there, and moves the mass on from q_{k+1/2} with the new velocity, q_{k+1} = q_{k+1/2} + (h/2) v_{k+1}; so r_{k+1} × "
          "v_{k+1} = r_{k+1/2} × v_{k+1} = r_{k+1/2} × v_k = r_k × v_k, whatever h.\n";
  if (at_rounding.count("nonsmooth_rattle") || at_rounding.count("variational_collision"))
    md << "- Nonsmooth RATTLE and the variational collision integrator move the mass by RATTLE's steps: each half-kick's "
          "constraint force lies along the string at its own end of the step and the drift moves along v_{k+1/2}, so "
          "r_{k+1} × v_{k+1} = r_{k+1} × v_{k+1/2} = r_k × v_{k+1/2} = r_k × v_k, in a flight and (derived, not tested "
          "here: no taut phase falls within this horizon) in a taut step. The collision's impulse lies along the string "
          "at the point where it is posed, the step's end for nonsmooth RATTLE and the located collision point q̃ for the "
          "variational collision integrator, whose two pieces keep it since q_k × (q̃ − q_k) = q̃ × (q̃ − q_k) = 0 for a "
          "piece along q̃ − q_k (the discrete Noether theorem across a collision: Fetecau, Marsden, Ortiz & West 2003).\n";
  if (at_rounding.count("rk45") || at_rounding.count("cvode") || at_rounding.count("ida"))
    md << "- The event-driven methods apply the impulse at the located state, along the string there. Between events the "
          "flights are straight lines, which every consistent method integrates exactly: this case tests only their "
          "located impulse.\n";
  if (falling.count("nonsmooth_generalized_alpha"))
    md << "- Nonsmooth generalized-α's position correction (Brüls, Acary & Cardona 2014), U = M⁻¹Gᵀν, moves the mass back "
          "along the string's direction at its smooth stage's end by the depth δ > 0 it passed the length, and leaves the "
          "velocity as it is: Δπ = −m δ (r̂ × v), not 0 where the velocity has a tangential part. r̂ × v keeps its sign "
          "from hit to hit, so the hits' kicks add, each at most m v_t v_r h (v_r the hit's radial speed): first order in "
          "h as a bound; the measured local slopes are above.\n";
  const bool penalty_falls = std::any_of(methods.begin(), methods.end(),
                                         [&](const MomentumRuns& m) { return m.compliant && !noether_momentum_at_rounding(m.runs); });
  if (penalty_falls)
    md << "- A penalty run's string is a stiff radial spring and dashpot, a central force that keeps π too; but a "
          "Runge–Kutta method conserves quadratic invariants such as r × v only under Cooper's condition b_i a_ij + b_j a_ji "
          "= b_i b_j (Hairer, Lubich & Wanner, Geometric Numerical Integration, IV.2), which rk2, rk4 and Dormand–Prince "
          "do not meet, and BDF methods conserve none (ibid., XV.4), so each contact leaves the method's truncation error "
          "in π, falling as the step or the tolerance is refined (the values and slopes above).\n";
  md << '\n';
}

}  // namespace tb::snap
