#pragma once
// The report's job pool: independent jobs on a few worker threads, longest expected first,
// with a progress display: on a terminal a bar redrawn every second (jobs done, elapsed, ETA,
// the jobs running and for how long), otherwise the same as a plain line every 30 s.
//
// What "longest" means: each job's wall time measured by an earlier report where one is
// stored (reference/job_costs.csv, by job label), else its own expected_cost (steps, ...)
// scaled by the median seconds per unit of expected cost over the jobs that were stored. With
// seconds to go by, the ETA is the remaining estimated work spread over the workers, corrected
// by how fast the finished jobs ran against their estimates, and never less than the longest
// running job's remainder; without any stored time it is the elapsed time scaled by the
// share of expected cost done.

#include <map>
#include <string>
#include <vector>

#include "core/study.hpp"

namespace tb {

// Earlier wall times (s) by job label.
using StoredJobSeconds = std::map<std::string, double>;

// Runs every job; returns each job's wall time (s), in the order given.
std::vector<double> run_jobs(std::vector<StudyJob> jobs, unsigned workers, const StoredJobSeconds& stored = {});

// Each job's estimated cost as run_jobs orders by it (see above); `in_seconds` says whether
// any stored time matched, i.e. whether the estimates are seconds or only relative costs.
std::vector<double> estimated_job_costs(const std::vector<StudyJob>& jobs, const StoredJobSeconds& stored,
                                        bool& in_seconds);

}  // namespace tb
