#pragma once
// Where each result of a report came from (issue 43): run now, or reused from the folder's job
// store, and by which build and when. jobs.csv holds one row per job; the one-line summary goes
// into build_info.csv ("jobs") and index.md's opening line.

#include <string>
#include <vector>

#include "app/jobs/jobs.hpp"

namespace tb {

// jobs.csv in `dir`: job, origin ("run" or "reused"), seconds, host, build, finished_at.
void write_job_provenance(const std::string& dir, const std::vector<std::string>& labels, const JobsDone& done);

// "1486 jobs: 12 run now, 1474 reused from this folder's store (the same build and inputs;
// finished 2026-11-29 03:50:01 UTC to 2026-11-29 04:00:12 UTC)"; "N jobs, all run now".
std::string job_provenance_line(const JobsDone& done);

}  // namespace tb
