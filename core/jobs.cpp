#include "core/jobs.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>

#include "core/parallel.hpp"

namespace tb {

namespace {

using Clock = std::chrono::steady_clock;

// What the pool is doing, for the progress display: jobs done, their share of the expected
// cost, and the jobs running now (a ten-minute job shows as running, with its elapsed time).
class Progress {
 public:
  Progress(const std::vector<StudyJob>& jobs) : jobs_(jobs), terminal_(isatty(STDERR_FILENO)), start_(Clock::now()) {
    for (const auto& j : jobs) total_cost_ += j.expected_cost;
  }

  void started(size_t i) {
    std::lock_guard<std::mutex> lock(mutex_);
    running_.insert(i);
    started_at_[i] = Clock::now();
  }
  void finished(size_t i) {
    std::lock_guard<std::mutex> lock(mutex_);
    running_.erase(i);
    ++done_;
    done_cost_ += jobs_[i].expected_cost;
  }

  // Until stop(): a line that redraws every second on a terminal, a plain line every 30 s otherwise.
  void show_until_stopped() {
    const auto interval = terminal_ ? std::chrono::seconds(1) : std::chrono::seconds(30);
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopped_) {
      if (stop_signal_.wait_for(lock, interval, [&] { return stopped_; })) break;
      print_locked(false);
    }
    print_locked(true);
  }
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopped_ = true;
    }
    stop_signal_.notify_all();
  }

 private:
  void print_locked(bool final_line) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    char line[512];
    if (final_line) {
      std::snprintf(line, sizeof line, "  [%zu/%zu] done in %.0f s", done_, jobs_.size(), elapsed);
    } else {
      // ETA from the expected cost done so far; "?" until a job has finished.
      const double share = total_cost_ > 0.0 ? done_cost_ / total_cost_ : 0.0;
      char eta[32] = "?";
      if (share > 0.0) std::snprintf(eta, sizeof eta, "~%.0f s", elapsed * (1.0 - share) / share);
      std::string running;
      for (size_t i : running_) {
        const double for_s = std::chrono::duration<double>(Clock::now() - started_at_[i]).count();
        char item[160];
        std::snprintf(item, sizeof item, "%s%s (%.0f s)", running.empty() ? "" : "; ", jobs_[i].label.c_str(), for_s);
        running += item;
      }
      const int bar = int(24 * share);
      std::snprintf(line, sizeof line, "  [%-24.*s] %zu/%zu jobs, %.0f s, ETA %s | running: %s", bar,
                    "########################", done_, jobs_.size(), elapsed, eta, running.c_str());
    }
    if (terminal_) std::fprintf(stderr, "\r%-160.160s%s", line, final_line ? "\n" : "");
    else std::fprintf(stderr, "%s\n", line);
    std::fflush(stderr);
  }

  const std::vector<StudyJob>& jobs_;
  const bool terminal_;
  const Clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable stop_signal_;
  std::set<size_t> running_;
  std::vector<Clock::time_point> started_at_ = std::vector<Clock::time_point>(jobs_.size());
  size_t done_ = 0;
  double total_cost_ = 0.0, done_cost_ = 0.0;
  bool stopped_ = false;
};

}  // namespace

void run_jobs(std::vector<StudyJob> jobs, unsigned workers) {
  // Longest expected first, so that the long runs do not start last and set the wall time.
  std::stable_sort(jobs.begin(), jobs.end(),
                   [](const StudyJob& a, const StudyJob& b) { return a.expected_cost > b.expected_cost; });
  Progress progress(jobs);
  std::thread display([&] { progress.show_until_stopped(); });
  try {
    run_parallel(jobs.size(), workers, [&](size_t i) {
      progress.started(i);
      jobs[i].run();
      progress.finished(i);
    });
  } catch (...) {
    progress.stop();
    display.join();
    throw;
  }
  progress.stop();
  display.join();
}

}  // namespace tb
