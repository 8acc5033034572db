#pragma once
// Runs independent jobs 0..n-1 on a few worker threads. Each job must only touch its own
// results; the first exception thrown by a job is rethrown after all workers stop.

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tb {

inline void run_parallel(size_t jobs, unsigned workers, const std::function<void(size_t)>& job) {
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (size_t i = next++; i < jobs; i = next++) {
      try {
        job(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < std::max(1u, workers); ++w) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace tb
