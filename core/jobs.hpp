#pragma once
// The report's job pool: independent jobs on a few worker threads, longest expected first,
// with a progress display: on a terminal a bar redrawn every second (jobs done, elapsed, ETA
// from the expected cost done, the jobs running and for how long), otherwise the same as a
// plain line every 30 s.

#include <string>
#include <vector>

#include "core/study.hpp"

namespace tb {

void run_jobs(std::vector<StudyJob> jobs, unsigned workers);

}  // namespace tb
