#include "app/jobs/job_progress.hpp"

#include "app/common/progress_sink.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace tb {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

JobProgress::JobProgress(std::vector<std::string> labels, std::vector<double> estimate, bool in_seconds, unsigned workers)
    : labels_(std::move(labels)), estimate_(std::move(estimate)), in_seconds_(in_seconds), workers_(std::max(1u, workers)),
      terminal_(isatty(STDERR_FILENO)), start_(Clock::now()), started_at_(labels_.size()) {
  total_estimate_ = std::accumulate(estimate_.begin(), estimate_.end(), 0.0);
}

void JobProgress::started(size_t i) {
  std::lock_guard<std::mutex> lock(mutex_);
  running_.insert(i);
  started_at_[i] = Clock::now();
}

void JobProgress::finished(size_t i, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  running_.erase(i);
  ++done_;
  done_estimate_ += estimate_[i];
  done_seconds_ += seconds;
}

void JobProgress::show_until_stopped() {
  // A host's sink (a notebook: app/common/progress_sink.hpp) every 5 s; a log file every 30 s.
  const auto interval = terminal_ ? std::chrono::seconds(1) : progress_sink() ? std::chrono::seconds(5) : std::chrono::seconds(30);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopped_) {
    if (stop_signal_.wait_for(lock, interval, [&] { return stopped_; })) break;
    print_locked(false);
  }
  print_locked(true);
}

void JobProgress::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
  }
  stop_signal_.notify_all();
}

// Share of the estimated work done (running jobs credited with their elapsed share, capped)
// and the remaining wall time (s); a negative time means "not known yet".
void JobProgress::outlook_locked(double elapsed, double& share, double& eta) const {
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

void JobProgress::print_locked(bool final_line) {
  const double elapsed = seconds_since(start_);
  char line[512];
  if (final_line) {
    std::snprintf(line, sizeof line, "  [%zu/%zu] done in %.0f s", done_, labels_.size(), elapsed);
  } else {
    double share = 0.0, eta_s = -1.0;
    outlook_locked(elapsed, share, eta_s);
    char eta[32] = "?";  // relative costs: unknown until a job has finished
    if (eta_s >= 0.0) std::snprintf(eta, sizeof eta, "~%.0f s", eta_s);
    std::string running;
    for (size_t i : running_) {
      char item[160];
      std::snprintf(item, sizeof item, "%s%s (%.0f s)", running.empty() ? "" : "; ", labels_[i].c_str(),
                    seconds_since(started_at_[i]));
      running += item;
    }
    const int bar = int(24 * std::clamp(share, 0.0, 1.0));
    std::snprintf(line, sizeof line, "  [%-24.*s] %zu/%zu jobs, %.0f s, ETA %s | running: %s", bar,
                  "########################", done_, labels_.size(), elapsed, eta, running.c_str());
  }
  if (const ProgressSink* sink = progress_sink()) {
    (*sink)(line);
    return;
  }
  if (terminal_) std::fprintf(stderr, "\r%-160.160s%s", line, final_line ? "\n" : "");
  else std::fprintf(stderr, "%s\n", line);
  std::fflush(stderr);
}

}  // namespace tb
