#pragma once
// `tetherbench report`: every bundled case with every applicable integrator, a work-precision
// sweep against the stored reference solution, measured orders, the papers' figures side by
// side, build information, benchmarks, and the plots and index drawn by scripts/plot_report.py.
// Also the reference solutions themselves (`tetherbench reference`).

#include <string>
#include <vector>

#include "core/case.hpp"
#include "core/runner.hpp"

namespace tb {

// Reference solution: RK45 (Dormand-Prince) at rtol 1e-13, atol 1e-15 on the model's ODE form,
// i.e. the same semi-discrete model every formulation integrates.
constexpr double kReferenceRtol = 1e-13;
constexpr double kReferenceAtol = 1e-15;

struct ReferenceRun {
  IntegrationOutcome outcome;
  Eigen::VectorXd physical;  // the model's physical state at t_end
};
// The formulation whose tight solution an integrator consuming `consumed` is measured against:
// that very formulation when it is an ODE (the embedded ODE, the lumped-mass string — a
// different semi-discrete system), else the model's embedded ODE (the same semi-discrete
// system, e.g. for the LGVI).
FormulationKind reference_kind(const Model& model, FormulationKind consumed);
ReferenceRun compute_reference(const Model& model, FormulationKind kind, double t_end, double initial_step);
inline ReferenceRun compute_reference(const Model& model, double t_end, double initial_step) {
  return compute_reference(model, FormulationKind::EmbeddedOde, t_end, initial_step);
}

// Writes reference/<case>/final_state.csv (embedded ODE) for each case, and
// final_state_<kind>.csv for its other ODE-type formulations. Returns the files written.
std::vector<std::string> write_references(const std::vector<Case>& cases, const std::string& reference_dir,
                                          const std::string& command);

struct ReportOptions {
  std::string out_dir = "reports";
  std::string reference_dir;    // holds <case>/final_state.csv and paper_figures.csv
  unsigned workers = 1;         // parallel runs
  bool benchmarks = true;       // run the Google Benchmark suite and summarise it
  bool plots = true;            // run scripts/plot_report.py (matplotlib)
  std::string command;          // the command line, recorded in build_info.csv
};

// Returns 0 when everything was written (failed runs are results, marked in the tables).
int write_report(const std::vector<Case>& cases, const ReportOptions& options);

}  // namespace tb
