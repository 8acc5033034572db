#include "studies/snap/noether_momentum.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "app/running/round_off.hpp"
#include "core/format.hpp"
#include "core/growth.hpp"

namespace tb::snap {

double noether_momentum_floor(const SnapRun& r) {
  if (!std::isfinite(r.noether_momentum_err_max) || !std::isfinite(r.noether_momentum0)) return kNoNumber;
  // The steps and the samples both: an adaptive run reads each sample off its dense output, a polynomial
  // evaluation with its own rounding beside the steps' (cvode crosses the rebound's straight chords in a handful
  // of steps, whose floor alone, 5e-15, sits below the 6e-14 its 250 interpolated samples show).
  return round_off_floor(std::abs(r.noether_momentum0), r.counters.steps + r.samples_read);
}

bool keeps_noether_momentum(const SnapRun& r) {
  const double floor = noether_momentum_floor(r);
  return r.outcome.ok() && std::isfinite(floor) && r.noether_momentum_err_max <= kGrowthSignalOverFloor * floor;
}

namespace {

// Each method's runs in the case's order (a method is its row label: integrator and discretisation).
struct MethodRuns {
  std::string label;
  std::string integrator;
  bool compliant = false;  // a penalty (compliant) discretisation: no impact law
  std::vector<const SnapPoint*> runs;
  bool all_kept() const {
    return std::all_of(runs.begin(), runs.end(), [](const SnapPoint* p) { return keeps_noether_momentum(p->measured); });
  }
  bool none_kept() const {
    return std::none_of(runs.begin(), runs.end(), [](const SnapPoint* p) { return keeps_noether_momentum(p->measured); });
  }
};

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
  return out;
}

// "h = 2e-3: 2.8e-3; ...", and for a fixed step the local slope between its two finest steps that measured one.
std::string values_and_slope(const MethodRuns& m) {
  std::string out;
  std::vector<std::pair<double, double>> by_h;  // (h, error) of the fixed-step runs that completed
  for (const SnapPoint* p : m.runs) {
    const SnapRun& r = p->measured;
    out += (out.empty() ? "" : "; ") + p->setting() + ": " +
           (r.outcome.ok() ? number_or_dash(r.noether_momentum_err_max) : "failed (" + std::string(r.outcome.word()) + ")");
    if (!p->adaptive() && r.outcome.ok() && std::isfinite(r.noether_momentum_err_max) && r.noether_momentum_err_max > 0.0)
      by_h.push_back({p->h, r.noether_momentum_err_max});
  }
  std::sort(by_h.begin(), by_h.end());
  if (by_h.size() >= 2 && by_h[0].first < by_h[1].first) {
    const double slope = std::log(by_h[1].second / by_h[0].second) / std::log(by_h[1].first / by_h[0].first);
    out += "; local slope " + format_g(slope, 3) + " in h between h = " + format_g(by_h[1].first) + " and " + format_g(by_h[0].first);
  }
  return out;
}

}  // namespace

void write_noether_momentum(std::ostringstream& md, const Case& c, const std::vector<const SnapPoint*>& of_case) {
  if (!c.model->has_momentum_map()) return;
  std::vector<MethodRuns> methods;
  for (const SnapPoint* p : of_case) {
    if (p->role != SnapRole::Compared) continue;
    const std::string label = p->key.label();
    auto it = std::find_if(methods.begin(), methods.end(), [&](const MethodRuns& m) { return m.label == label; });
    if (it == methods.end()) {
      methods.push_back({label, p->key.integrator->name, c.model->switching() && p->key.discretisation == "penalty", {}});
      it = methods.end() - 1;
    }
    it->runs.push_back(p);
  }
  std::vector<std::string> kept, partly, broken;
  std::map<std::string, const MethodRuns*> by_integrator_kept, by_integrator_broken;  // by integrator name
  for (const MethodRuns& m : methods) {
    if (m.all_kept()) {
      kept.push_back(m.label);
      if (!m.compliant) by_integrator_kept[m.integrator] = &m;
    } else {
      (m.none_kept() ? broken : partly).push_back(m.label + " (" + values_and_slope(m) + ")");
      if (m.none_kept() && !m.compliant) by_integrator_broken[m.integrator] = &m;
    }
  }
  md << "\n**The angular momentum about the pivot** (column max |π − π0|). Without gravity the rotations of the plane "
        "about the pivot are a symmetry and π = m (z v_x − x v_z) its Noether momentum: the flights keep it (no force), "
        "and so does Newton's impulse along the string, which has no moment about the pivot. A run is read as keeping it "
        "where max |π − π0| over its samples stays within "
     << format_g(kGrowthSignalOverFloor) << " times its Brouwer floor, 8 ε max(1, |π0|) √n (the gates' floor, reference/README.md), with n its steps and "
        "the observer's samples together: an adaptive run reads each sample off its dense output, an evaluation with its "
        "own rounding, and crosses these straight chords in a handful of steps.\n\n";
  if (!kept.empty()) md << "- Kept at every step and tolerance: " << joined(kept) << ".\n";
  if (!partly.empty()) md << "- Kept at some settings only: " << joined(partly) << ".\n";
  if (!broken.empty()) md << "- Not kept at any: " << joined(broken) << ".\n";
  md << "\nThe mechanisms, for the schemes the data above place on either side:\n\n";
  if (by_integrator_kept.count("moreau_jean"))
    md << "- Moreau–Jean poses its impact at q_{k+1/2} = q_k + (h/2) v_k and moves the mass from there with the new velocity, "
          "so r_{k+1} × v_{k+1} = r_{k+1/2} × v_{k+1} = r_{k+1/2} × v_k (its impulse lies along r_{k+1/2}) = r_k × v_k: kept "
          "by the algebra of the step, whatever h.\n";
  if (by_integrator_kept.count("nonsmooth_rattle") || by_integrator_kept.count("variational_collision"))
    md << "- Nonsmooth RATTLE and the variational collision integrator move the mass by RATTLE's steps: each half-kick's "
          "constraint force lies along the string at its own end of the step and the drift moves along v_{k+1/2}, so "
          "r_{k+1} × v_{k+1} = r_{k+1} × v_{k+1/2} = r_k × v_{k+1/2} = r_k × v_k, in a taut step and in a flight alike (the "
          "discrete Noether theorem of a discrete Lagrangian and constraint the rotations leave invariant; Marsden & West "
          "2001, Acta Numerica 10, with § 3.5 for the constraints). The collision's impulse lies along the string at the "
          "point where it is posed (the step's end for nonsmooth RATTLE, the located collision point for the variational "
          "collision integrator) and the mass moves on from that point, so it keeps π too.\n";
  for (const char* event_driven : {"rk45", "cvode", "ida"})
    if (by_integrator_kept.count(event_driven)) {
      md << "- The event-driven methods apply the impulse at the located state, along the string there; between "
            "events the flights are straight lines, which every consistent method integrates exactly.\n";
      break;
    }
  if (by_integrator_broken.count("nonsmooth_generalized_alpha"))
    md << "- Nonsmooth generalized-α's position correction (Brüls, Acary & Cardona 2014) moves the mass back along the "
          "string's direction at its smooth stage's end by the depth δ it passed the length, and leaves the velocity as "
          "it is: Δπ = −m δ (r̂ × v), not 0 where the velocity has a tangential part (here |r0 × v0| / l = 1 m/s at every "
          "hit). δ is up to the radial speed times h at a hit, so the error is first order in h: its slope above.\n";
  const bool penalty_not_kept = std::any_of(methods.begin(), methods.end(), [](const MethodRuns& m) { return m.compliant && !m.all_kept(); });
  if (penalty_not_kept)
    md << "- A penalty run's string is a stiff radial spring and dashpot, a central force that also keeps π; but a "
          "Runge–Kutta or BDF method keeps linear invariants only, not a quadratic one like r × v (Hairer, Lubich & "
          "Wanner, Geometric Numerical Integration, IV.1–2), so each contact leaves the method's local error in π "
          "there, falling as the step or the tolerance shrinks (the values above; a fixed step's not at the method's "
          "order, the contact's entry being crossed unlocated: the penalty paragraph); where it falls below the floor at "
          "the finer settings, that is its error reaching round-off, not a conservation.\n";
}

}  // namespace tb::snap
