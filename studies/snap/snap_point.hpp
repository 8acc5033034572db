#pragma once
// One run of the snap study (studies/snap/snap.hpp): which method, at which step or tolerance, in
// which role, and what the observer measured of it (studies/snap/observation.hpp). Shared by the
// pages judged against a closed form (snap.cpp) and against a converged reference (against_reference).

#include <string>
#include <utility>
#include <vector>

#include "app/input/case.hpp"
#include "app/running/run_request.hpp"
#include "core/format.hpp"
#include "studies/snap/observation.hpp"

namespace tb::snap {

// A compared method's run; or, on a case without a closed form, the reference every run is judged
// against (the catalogue's cross-check solver, event-driven, at a tight tolerance) and its check (the
// catalogue's event check likewise, another family: their distance is the resolution of every error against it).
enum class SnapRole { Compared, Reference, ReferenceCheck };

struct SnapPoint {
  RunKey key;
  double h = 0.0, rtol = 0.0;
  SnapRole role = SnapRole::Compared;
  SnapRun measured;
  bool adaptive() const { return key.integrator->adaptive; }
  std::string setting() const { return adaptive() ? "rtol = " + format_g(rtol) : "h = " + format_g(h, 6); }
};

// How far from the expected switch e a run's switch may lie and still be matched to it (s): half the gap
// to the nearest expected switches at other times (a rebound's opening shares its hit's time), or to
// the horizon's ends [0, t_end]. `expected`: (time, snaps taut) in time order.
double matching_window(const std::vector<std::pair<double, bool>>& expected, size_t e, double t_end);

// A number for the pages' tables, to `digits` significant digits; "—" where it is none (NaN).
std::string number_or_dash(double x, int digits = 3);
// The same to 3 digits with its sign always shown ("+1e-05", "-0.151"): a signed error or offset.
std::string signed_or_dash(double x);

// The round-off of an energy difference, in ulps of the case's energy scale E_s (its largest kinetic energy):
// E also holds potentials larger than E_s, and the fixed-step first-snap loss errors on the cable stop at 1e-14
// to 3e-14 J, 30 to 80 ulps of E_s (a referee read: 4 ulps counted round-off as converging).
constexpr double kEnergyRoundOffUlps = 64.0;
// kEnergyRoundOffUlps eps E_s for the case; E_s = `fallback_scale` (J) where the case has no fixed scale.
double energy_round_off(const Case& c, double fallback_scale);

// The configuration entries of a physical state (Model::physical_parts), all of it where the model does not say.
std::vector<double> configuration_of(const Model& model, const std::vector<double>& physical);
// The max-norm distance of two physical states' configurations (m); NaN where either is missing.
double configuration_distance(const Model& model, const std::vector<double>& a, const std::vector<double>& b);

}  // namespace tb::snap
