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

#include "app/input/study.hpp"

namespace tb {

// Earlier wall times (s) by job label.
using StoredJobSeconds = std::map<std::string, double>;

struct JobOptions {
  unsigned workers = 1;       // threads per process
  StoredJobSeconds stored;    // for the order and the ETA
  // The resume store: one file per job under this folder (<out>/.jobs), written by the gathering
  // process as each job ends (write, then rename: a killed report leaves only whole files).
  // Empty: nothing stored.
  std::string store_dir;
  bool resume = false;        // reuse stored results whose fingerprint matches; run only the rest
  // The code's identity, part of every job's fingerprint: the build's (app/common/build_identity.hpp),
  // so a stored result is reused only by a build of the same code.
  std::string version;
  bool quiet = false;         // no progress display
};

struct JobsDone {
  std::vector<double> seconds;     // each job's wall time (s), in the order given (a reused job: its stored time)
  std::vector<std::string> hosts;  // where each job ran
  std::vector<std::string> builds, finished_at;  // the build that ran each job, and when it finished
  std::vector<bool> reused_flags;  // each job: taken from the store (true) or run now
  std::map<std::string, std::string> host_types;  // host -> its type (CPU model), of the hosts that ran jobs
  size_t reused = 0;               // results taken from the store
  size_t ran = 0;                  // jobs run now
  size_t cut_short = 0;            // of those, ended by an interrupt: not stored, run again on --resume
  std::vector<size_t> by_rank;     // of those, how many each MPI rank ran (one entry without MPI)
  bool gathering = true;           // this process applied the results and writes the outputs (MPI rank 0)
};

// Runs every job, on this process's threads or (under mpirun, app/jobs/distributed.hpp) handed out
// one at a time to whichever rank asks, longest expected first; then, on the gathering process
// only, applies every job's result in the order given. A job's identity is its label (with a
// count for a repeated label) and its fingerprint: the build's identity, the label and its inputs.
JobsDone run_jobs(std::vector<StudyJob> jobs, const JobOptions& options);
// One process, no store: each job's wall time (s), in the order given.
std::vector<double> run_jobs(std::vector<StudyJob> jobs, unsigned workers, const StoredJobSeconds& stored = {});

// A job's fingerprint (16 hex digits).
std::string job_fingerprint(const StudyJob& job, const std::string& version);

// Each job's estimated cost as run_jobs orders by it (see above); `in_seconds` says whether
// any stored time matched, i.e. whether the estimates are seconds or only relative costs.
std::vector<double> estimated_job_costs(const std::vector<StudyJob>& jobs, const StoredJobSeconds& stored,
                                        bool& in_seconds);

}  // namespace tb
