#pragma once
// Study snap (issue 48): links that go slack and snap taut (a unilateral link with Newton's impact
// law, SwitchingFunctions::impacts), every integrator that runs the case against the model's known
// answers (Model::switching_closed_form), at each fixed step and each tolerance of the case's table.
//
// Measured for every run by one observer (studies/snap/observation.hpp):
//  - each expected switch's time error (the run's nearest switch of the same link and direction),
//    beside the observer's own floor; the switches the run makes beyond the expected ones (chatter);
//  - at each expected snap, the mechanical energy the run loses across it against the closed form's
//    loss (the impact law's), and the loss the run booked (its work term);
//  - the energy balance's drift between switches, max |E - E0 - W| over the run;
//  - the links' violations: the overstretch max(0, |r| - l) and the outward rate beyond the length;
//  - the position error at the horizon against the closed form's exact state;
//  - steps and runtime; from these the orders in h of the fixed-step methods (the suite's one order
//    rule, app/judging/order_fit.hpp), the slopes in rtol of the adaptive ones, the cheapest run
//    that reaches each position error (work-precision), and the advice that follows from them.
//
// Its own table of a case file, [report.snap] (the study runs only on cases with one):
//   t_end            the horizon (s); default the case's t_end
//   steps            fixed steps (s, at least 3); default the case's [report] steps
//   tolerances       rtol of the adaptive methods (at least 3; atol = rtol / 100); default the case's
//   sample_interval  the adaptive runs' observation grid (s); default 1e-5
// Writes snap.csv (a row per run) and snap.md.

#include <string>
#include <vector>

#include "app/input/study.hpp"

namespace tb {

struct SnapSection final : StudySection {
  static constexpr const char* kStudy = "snap";
  double t_end = 0.0;
  std::vector<double> steps, tolerances;
  double sample_interval = 1e-5;
  // The reference again with one [model] key at another value each ([report.snap] reference_variants, one key
  // each, and reference_variant_values): the model numbers its own resolution depends on (on Model C's cables
  // the hybrid form's closing rules), measured inside the reference's job. Cases judged against a reference only.
  std::vector<std::string> variant_keys;
  std::vector<double> variant_values, variant_base_values;  // the values run, and the case's
  std::vector<std::shared_ptr<const Model>> variant_models;
  std::vector<Span> fixed_step_spans() const override {
    std::vector<Span> spans;
    for (double h : steps) spans.push_back({"steps", t_end, h});
    return spans;
  }
};

StudyInfo snap_study();
// Reads each compared run's cascade against the reference (snap_cables.csv) into ReportData::cascades
// (StudyInfo::read_back; read_back.cpp).
struct ReportData;
void read_snap_back(const std::string& dir, ReportData& data);

}  // namespace tb
