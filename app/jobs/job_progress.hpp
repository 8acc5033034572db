#pragma once
// The job pool's progress display: on a terminal a bar redrawn every second (jobs done,
// elapsed, ETA, the jobs running and for how long), otherwise the same as a plain line every
// 30 s. With seconds to go by (stored wall times), the ETA is the remaining estimated work
// spread over the workers, corrected by how fast the finished jobs ran against their
// estimates, and never less than the longest running job's remainder; without any stored time
// it is the elapsed time scaled by the share of expected cost done.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace tb {

class JobProgress {
 public:
  // labels[i], estimate[i]: the jobs that run now; in_seconds: whether the estimates are seconds.
  JobProgress(std::vector<std::string> labels, std::vector<double> estimate, bool in_seconds, unsigned workers);

  void started(size_t i);
  void finished(size_t i, double seconds);
  // Until stop(): a line that redraws every second on a terminal, a plain line every 30 s otherwise.
  void show_until_stopped();
  void stop();

 private:
  using Clock = std::chrono::steady_clock;
  void outlook_locked(double elapsed, double& share, double& eta) const;
  void print_locked(bool final_line);

  const std::vector<std::string> labels_;
  const std::vector<double> estimate_;
  const bool in_seconds_;
  const unsigned workers_;
  const bool terminal_;
  const Clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable stop_signal_;
  std::set<size_t> running_;
  std::vector<Clock::time_point> started_at_;
  size_t done_ = 0;
  double total_estimate_ = 0.0, done_estimate_ = 0.0, done_seconds_ = 0.0;
  bool stopped_ = false;
};

}  // namespace tb
