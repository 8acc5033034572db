#pragma once
// The report's job pool: independent jobs on a few worker threads, longest expected first,
// with a progress line (one line per job on a terminal, every 10 jobs otherwise).

#include <string>
#include <vector>

#include "core/study.hpp"

namespace tb {

void run_jobs(std::vector<StudyJob> jobs, unsigned workers);

}  // namespace tb
