#pragma once
// Study slack_taut (issue 47): cables that go slack and taut, every integrator on each case whose
// model declares switching functions (core/switching.hpp: a tension-only element's stretch).
//
// What is measured, for every integrator that runs the case, by one observer fed the same samples
// (every step end of a fixed-step method; a fine grid of an adaptive method's dense output):
//  - the switches: each sign change of a stretch between two samples, timed by the zero of the
//    cubic Hermite interpolant of s and ds/dt there (its error is O(dt^4) where s is smooth, and
//    O(dt^3) times the jump of s''' across the kink: 1e-15 s on the bundled grid), counted against
//    the closed form's switches (Model::switching_closed_form, where exact) or the reference's;
//    each reference switch is matched to the run's nearest of the same element and direction;
//  - the event-time error (the largest over the matched switches), the peak tension of the first
//    taut phase against the closed form's, the position error at t_end (closed form or reference);
//  - the energy balance's error: its jumps across the samples that bracket each switch, and its
//    range within the phases between switches;
//  - the order in h of the fixed-step methods, which step through the kink, against what theory
//    gives them there: the force is C^0 with a kink, so a step containing a switch integrates a
//    force whose time derivative jumps, a quadrature error O(h^2) in the velocity (any rule exact
//    on linears: the kink term c (t - t*)_+ is integrated to O(c h^2)), once per switch; the global
//    error is then O(h^min(p, 2)) for a method of order p;
//  - the adaptive methods at each tolerance with and without event location (`locate_events`),
//    their error against their mean step t_end / steps;
//  - over a long run ([report.slack_taut] long_t_end), the growth law of |E - E0| (core/growth.hpp)
//    and the switch count: the backward-error question (a symplectic method's modified energy
//    exists on each smooth piece; a step across the kink leaves it by O(h^2), so does the error
//    walk, as sqrt(t) for jumps of random sign, or drift, linearly for jumps of one sign?);
//  - where the closed form is a limit (the inextensible string), that limit's approach by the model
//    itself: the reference solver on the case at each value of `limit_values` of `limit_key`.
//
// Its own table of a case file, [report.slack_taut] (the study runs only on cases with one):
//   t_end            the horizon of the event comparison (s); default the case's t_end
//   steps            fixed steps (s, at least 3); default the case's [report] steps
//   tolerances       rtol of the adaptive methods (at least 3; atol = rtol / 100); default the case's [report] tolerances
//   sample_interval  the adaptive runs' observation grid (s); default 1e-5
//   long_t_end       a long run's horizon (s), 0 for none (default); its fixed steps long_steps
//                    (default the case's h; a second step can put the period on the step grid)
//   limit_key, limit_values   a [model] key and its values for the limit table (optional, together)
// Writes slack_taut.csv (a row per run) and slack_taut.md.

#include <memory>
#include <string>
#include <vector>

#include "app/input/study.hpp"
#include "core/model.hpp"

namespace tb {

struct SlackTaut final : StudySection {
  static constexpr const char* kStudy = "slack_taut";
  double t_end = 0.0;
  std::vector<double> steps, tolerances;
  double sample_interval = 1e-5;
  double long_t_end = 0.0;
  std::vector<double> long_steps;
  std::string limit_key;
  std::vector<double> limit_values;
  std::vector<std::shared_ptr<const Model>> limit_models;  // one per limit value
  std::vector<Span> fixed_step_spans() const override;
};

StudyInfo slack_taut_study();

}  // namespace tb
