#pragma once
// The data in reference/, as CSV read with fast-cpp-csv-parser: reference solutions (final
// physical state of a tight-tolerance run), the papers' published figures, and the conservation
// envelopes the CI gates check, and the measured cost of each job of the report. Lines starting with '#' are comments (sources, provenance).

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace tb {

// reference/<case>/final_state.csv: columns index,value — the model's physical state vector,
// after a provenance comment and a "# fingerprint: <hex>" comment (core/fingerprint.hpp).
void write_reference_state(const std::string& path, const Eigen::VectorXd& x, const std::string& provenance,
                           const std::string& fingerprint = "");
Eigen::VectorXd read_reference_state(const std::string& path);
// The fingerprint recorded in a reference file; "" when it has none (made before fingerprints).
std::string read_reference_fingerprint(const std::string& path);

// reference/<case>/trajectory.bin: the model's physical state on a uniform time grid
// t_k = k * interval, k = 0..K (K * interval = the reference horizon), stored compactly: text
// lines starting with '#' (provenance, "# fingerprint: <hex>", then the data line
// "# data: <K+1> samples x <n> float64 little-endian, t_k = k * <interval>"), followed by
// (K+1) * n raw IEEE-754 doubles, sample by sample. A file whose data does not have exactly that
// size, or whose header is not that, is refused (InputError naming the file).
struct StateTrajectory {
  double interval = 0.0;                // grid spacing (s)
  std::vector<Eigen::VectorXd> states;  // states[k] at t_k = k * interval, all of one size
};
void write_reference_trajectory(const std::string& path, const StateTrajectory& trajectory, const std::string& provenance,
                                const std::string& fingerprint);
StateTrajectory read_reference_trajectory(const std::string& path);

// reference/paper_figures.csv
struct PaperFigure {
  std::string source;      // e.g. "seed 000, Fig. 3(d)"
  std::string case_name;
  std::string integrator;
  std::string metric;      // a metric name (core/metrics.hpp)
  std::string statistic;   // "upper_bound" (the paper says "less than") or "value"
  double paper_value = 0.0;
  std::string note;
};
std::vector<PaperFigure> read_paper_figures(const std::string& path);

// reference/envelopes.csv
struct Envelope {
  std::string case_name;
  std::string integrator;
  std::string metric;      // a metric name (core/metrics.hpp)
  std::string bound_type;  // "max": value <= bound (conserved); "min": value >= bound (expected to drift);
                           // "fails" (metric "outcome"): the run is expected to fail (unstable at its step)
  double bound = 0.0;
  std::string policy;      // "fixed": a physical claim, kept by --record; "recorded": re-measured by --record
  double recorded_value = 0.0;  // what was measured when the bound was recorded
  std::string note;
};
std::vector<Envelope> read_envelopes(const std::string& path);
void write_envelopes(const std::string& path, const std::vector<Envelope>& rows);

// reference/job_costs.csv: columns job,seconds — the wall time each job of an earlier report
// took (the job's progress label: "case | run | what"). The report orders its jobs longest
// first and estimates its remaining time from these; `report` writes the same file, measured,
// in its output folder (refresh by copying it here). Labels are unique, seconds finite and >= 0.
struct JobCost {
  std::string job;
  double seconds = 0.0;
};
std::vector<JobCost> read_job_costs(const std::string& path);
void write_job_costs(const std::string& path, const std::vector<JobCost>& rows, const std::string& provenance);

}  // namespace tb
