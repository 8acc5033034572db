#include "core/jobs.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <set>
#include <thread>

#include "core/parallel.hpp"

namespace tb {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// What the pool is doing, for the progress display: jobs done, the estimated work done and
// left, and the jobs running now (a ten-minute job shows as running, with its elapsed time).
class Progress {
 public:
  Progress(const std::vector<StudyJob>& jobs, std::vector<double> estimate, bool in_seconds, unsigned workers)
      : jobs_(jobs), estimate_(std::move(estimate)), in_seconds_(in_seconds), workers_(std::max(1u, workers)),
        terminal_(isatty(STDERR_FILENO)), start_(Clock::now()) {
    total_estimate_ = std::accumulate(estimate_.begin(), estimate_.end(), 0.0);
  }

  void started(size_t i) {
    std::lock_guard<std::mutex> lock(mutex_);
    running_.insert(i);
    started_at_[i] = Clock::now();
  }
  void finished(size_t i, double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    running_.erase(i);
    ++done_;
    done_estimate_ += estimate_[i];
    done_seconds_ += seconds;
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
  // Share of the estimated work done (running jobs credited with their elapsed share, capped)
  // and the remaining wall time (s); a negative time means "not known yet".
  void outlook_locked(double elapsed, double& share, double& eta) const {
    if (!in_seconds_) {  // relative costs only: scale the elapsed time by the share done
      share = total_estimate_ > 0.0 ? done_estimate_ / total_estimate_ : 0.0;
      eta = share > 0.0 ? elapsed * (1.0 - share) / share : -1.0;
      return;
    }
    // How fast this machine runs against the stored times, from the jobs finished so far.
    const double speed = done_estimate_ > 0.0 ? done_seconds_ / done_estimate_ : 1.0;
    double credited = done_estimate_, running_left = 0.0, longest_left = 0.0, queued = total_estimate_ - done_estimate_;
    for (size_t i : running_) {
      const double expected = estimate_[i] * speed, ran = seconds_since(started_at_[i]);
      credited += estimate_[i] * std::min(1.0, expected > 0.0 ? ran / expected : 1.0);
      const double left = std::max(0.0, expected - ran);
      running_left += left;
      longest_left = std::max(longest_left, left);
      queued -= estimate_[i];
    }
    share = total_estimate_ > 0.0 ? credited / total_estimate_ : 0.0;
    eta = std::max(longest_left, (running_left + std::max(0.0, queued) * speed) / workers_);
  }

  void print_locked(bool final_line) {
    const double elapsed = seconds_since(start_);
    char line[512];
    if (final_line) {
      std::snprintf(line, sizeof line, "  [%zu/%zu] done in %.0f s", done_, jobs_.size(), elapsed);
    } else {
      double share = 0.0, eta_s = -1.0;
      outlook_locked(elapsed, share, eta_s);
      char eta[32] = "?";  // relative costs: unknown until a job has finished
      if (eta_s >= 0.0) std::snprintf(eta, sizeof eta, "~%.0f s", eta_s);
      std::string running;
      for (size_t i : running_) {
        char item[160];
        std::snprintf(item, sizeof item, "%s%s (%.0f s)", running.empty() ? "" : "; ", jobs_[i].label.c_str(),
                      seconds_since(started_at_[i]));
        running += item;
      }
      const int bar = int(24 * std::clamp(share, 0.0, 1.0));
      std::snprintf(line, sizeof line, "  [%-24.*s] %zu/%zu jobs, %.0f s, ETA %s | running: %s", bar,
                    "########################", done_, jobs_.size(), elapsed, eta, running.c_str());
    }
    if (terminal_) std::fprintf(stderr, "\r%-160.160s%s", line, final_line ? "\n" : "");
    else std::fprintf(stderr, "%s\n", line);
    std::fflush(stderr);
  }

  const std::vector<StudyJob>& jobs_;
  const std::vector<double> estimate_;
  const bool in_seconds_;
  const unsigned workers_;
  const bool terminal_;
  const Clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable stop_signal_;
  std::set<size_t> running_;
  std::vector<Clock::time_point> started_at_ = std::vector<Clock::time_point>(jobs_.size());
  size_t done_ = 0;
  double total_estimate_ = 0.0, done_estimate_ = 0.0, done_seconds_ = 0.0;
  bool stopped_ = false;
};

}  // namespace

std::vector<double> estimated_job_costs(const std::vector<StudyJob>& jobs, const StoredJobSeconds& stored,
                                        bool& in_seconds) {
  std::vector<double> estimate(jobs.size(), -1.0), seconds_per_unit;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto it = stored.find(jobs[i].label);
    if (it == stored.end()) continue;
    estimate[i] = it->second;
    if (jobs[i].expected_cost > 0.0) seconds_per_unit.push_back(it->second / jobs[i].expected_cost);
  }
  in_seconds = std::any_of(estimate.begin(), estimate.end(), [](double e) { return e >= 0.0; });
  // Jobs the stored table does not know (a new case, integrator or step): their own expected
  // cost at the median rate of the known ones, or the bare expected cost when none is known.
  double rate = 1.0;
  if (!seconds_per_unit.empty()) {
    auto middle = seconds_per_unit.begin() + seconds_per_unit.size() / 2;
    std::nth_element(seconds_per_unit.begin(), middle, seconds_per_unit.end());
    rate = *middle;
  }
  for (size_t i = 0; i < jobs.size(); ++i)
    if (estimate[i] < 0.0) estimate[i] = std::max(0.0, jobs[i].expected_cost) * rate;
  return estimate;
}

std::vector<double> run_jobs(std::vector<StudyJob> jobs, unsigned workers, const StoredJobSeconds& stored) {
  bool in_seconds = false;
  const std::vector<double> estimate = estimated_job_costs(jobs, stored, in_seconds);
  // Longest expected first, so that the long runs do not start last and set the wall time.
  std::vector<size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return estimate[a] > estimate[b]; });
  std::vector<StudyJob> sorted;
  std::vector<double> sorted_estimate;
  for (size_t i : order) sorted.push_back(std::move(jobs[i])), sorted_estimate.push_back(estimate[i]);

  std::vector<double> seconds(sorted.size(), 0.0);
  Progress progress(sorted, sorted_estimate, in_seconds, workers);
  std::thread display([&] { progress.show_until_stopped(); });
  try {
    run_parallel(sorted.size(), workers, [&](size_t i) {
      progress.started(i);
      const auto start = Clock::now();
      sorted[i].run();
      seconds[i] = seconds_since(start);
      progress.finished(i, seconds[i]);
    });
  } catch (...) {
    progress.stop();
    display.join();
    throw;
  }
  progress.stop();
  display.join();
  std::vector<double> in_given_order(seconds.size());
  for (size_t k = 0; k < order.size(); ++k) in_given_order[order[k]] = seconds[k];
  return in_given_order;
}

}  // namespace tb
