#include "core/jobs.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "core/parallel.hpp"

namespace tb {

void run_jobs(std::vector<StudyJob> jobs, unsigned workers) {
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const StudyJob& a, const StudyJob& b) { return a.expected_cost > b.expected_cost; });
  std::mutex mutex;
  size_t done = 0;
  const bool terminal = isatty(STDERR_FILENO);
  run_parallel(jobs.size(), workers, [&](size_t i) {
    jobs[i].run();
    std::lock_guard<std::mutex> lock(mutex);
    ++done;
    if (terminal) std::fprintf(stderr, "\r  [%zu/%zu] %-70.70s", done, jobs.size(), jobs[i].label.c_str());
    else if (done % 10 == 0 || done == jobs.size()) std::fprintf(stderr, "  [%zu/%zu] %s\n", done, jobs.size(), jobs[i].label.c_str());
    if (terminal && done == jobs.size()) std::fprintf(stderr, "\n");
  });
}

}  // namespace tb
