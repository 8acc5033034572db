#include "app/interrupt.hpp"

#include <atomic>
#include <csignal>

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

bool interrupted() { return g_interrupted.load(std::memory_order_relaxed); }
void set_interrupted(bool value) { g_interrupted.store(value, std::memory_order_relaxed); }

}  // namespace tb
