#include "app/running/interrupt.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>
#include <signal.h>
#include <cstdlib>

namespace tb {

namespace {
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_signal(int signal) {
  g_interrupted.store(true, std::memory_order_relaxed);
  std::signal(signal, SIG_DFL);  // a second signal stops the process
}
}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

struct InterruptScope::Saved {
  struct sigaction interrupt, terminate;
};

InterruptScope::InterruptScope() : saved_(new Saved) {
  set_interrupted(false);
  struct sigaction ours = {};
  ours.sa_handler = on_signal;
  sigemptyset(&ours.sa_mask);
  sigaction(SIGINT, &ours, &saved_->interrupt);
  sigaction(SIGTERM, &ours, &saved_->terminate);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &saved_->interrupt, nullptr);
  sigaction(SIGTERM, &saved_->terminate, nullptr);
  set_interrupted(false);
  delete saved_;
}

bool interrupted() { return g_interrupted.load(std::memory_order_relaxed); }
void set_interrupted(bool value) { g_interrupted.store(value, std::memory_order_relaxed); }

namespace {
// The installed poll, the thread that installed it and when it last looked (InterruptPoll). Set and
// cleared by that thread only, before and after the runs it calls; read by the runs' threads.
std::atomic<bool (*)()> g_poll{nullptr};
std::thread::id g_poll_thread;
std::chrono::steady_clock::time_point g_last_poll;
}  // namespace

InterruptPoll::InterruptPoll(bool (*poll)()) {
  g_poll_thread = std::this_thread::get_id();
  g_last_poll = std::chrono::steady_clock::now();
  g_poll.store(poll);
}

InterruptPoll::~InterruptPoll() { g_poll.store(nullptr); }

void poll_interrupt() {
  bool (*poll)() = g_poll.load(std::memory_order_acquire);  // and with it g_poll_thread, written before
  if (!poll || std::this_thread::get_id() != g_poll_thread) return;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - g_last_poll).count() < InterruptPoll::kPollSeconds) return;
  g_last_poll = now;
  if (poll()) set_interrupted(true);
}

namespace {
// Read when the library loads, not on a worker thread's first call (see kHostName in app/running/runner.cpp:
// a guard held across a fork hangs the worker process).
const long kStopAfterJobs = [] {
  const char* text = std::getenv("TETHERBENCH_TEST_STOP_AFTER_JOBS");
  return text ? std::atol(text) : 0L;
}();
std::atomic<long> g_finished_jobs{0};
}  // namespace

void count_finished_job_for_resume_test() {
  const long stop_after = kStopAfterJobs;
  auto& finished = g_finished_jobs;
  if (stop_after > 0 && ++finished == stop_after) std::raise(SIGTERM);
}

}  // namespace tb
