#include "app/running/isolation.hpp"

#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <vector>

#include "app/running/interrupt.hpp"
#include "core/format.hpp"

namespace tb {

namespace {

// What a worker reports while it runs, in memory shared with the process that waits for it.
// Written by the worker only; read by the waiting process while it polls and after the
// worker ended. Fixed-size, no pointers: the two processes map it at the same place, but
// nothing in it may point into either's heap.
struct Board {
  static constexpr int kFrames = 32;
  static constexpr int kPath = 256;
  std::atomic<long> runs_started{0};  // measure() calls begun (the running one's index, from 1)
  std::atomic<long> marks{0};         // run starts and ends: progress outside the steps
  std::atomic<int> in_run{0};         // > 0 while a run is measured (its nesting depth)
  std::atomic<long> steps{0};         // accepted steps of the current run
  std::atomic<double> t{0.0};         // time of its last accepted step
  char where[768] = {0};              // the current run ("integrator I, model M, case C")
  std::atomic<int> signal{0};         // the fault's signal, set by the worker's handler
  std::atomic<int> frames{0};
  char frame[kFrames][kPath] = {};  // the shared objects of the stack at the fault, innermost first
};
static_assert(std::atomic<double>::is_always_lock_free && std::atomic<long>::is_always_lock_free,
              "the board is shared between processes: its atomics must be lock-free");

IsolationSettings g_settings;
std::mutex g_plugin_files_mutex;
std::map<std::string, std::string> g_plugin_files;  // file -> plugin name
std::vector<std::string> g_plugin_origins;

// In a worker process only (one thread there: the one that forked).
Board* g_board = nullptr;
const std::map<long, RunOutcome>* g_replayed_failures = nullptr;

void copy_text(char* to, size_t size, const char* from) {
  size_t i = 0;
  for (; from && from[i] && i + 1 < size; ++i) to[i] = from[i];
  to[i] = 0;
}

// The worker's handler of a fault (and of the waiting process's SIGUSR2 at a hang): records the
// shared objects on the stack, then ends the worker by the same signal (so the waiting process
// reads the signal from the exit status) or, for SIGUSR2, by _exit. backtrace and dladdr are
// not on POSIX's async-signal-safe list; the worker is about to die anyway, backtrace was
// called once before the computation (its lazy loading is done), and the worst outcome of a
// handler that fails is a row without the plugin's name.
extern "C" void on_worker_fault(int sig, siginfo_t*, void*) {
  Board* board = g_board;
  if (board) {
    board->signal.store(sig);
    void* pcs[64];
    const int n = backtrace(pcs, 64);
    int k = 0;
    for (int i = 0; i < n && k < Board::kFrames; ++i) {
      Dl_info info{};
      if (dladdr(pcs[i], &info) == 0 || !info.dli_fname) continue;
      copy_text(board->frame[k++], Board::kPath, info.dli_fname);
    }
    board->frames.store(k);
  }
  if (sig == SIGUSR2) _exit(125);
  ::signal(sig, SIG_DFL);
  raise(sig);
}

void install_worker_handlers() {
  // Its own stack, so that a stack overflow (SIGSEGV on the guard page) is still recorded.
  static char alternate_stack[1 << 16];
  stack_t ss{};
  ss.ss_sp = alternate_stack;
  ss.ss_size = sizeof alternate_stack;
  sigaltstack(&ss, nullptr);
  struct sigaction action {};
  action.sa_sigaction = on_worker_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGSEGV, SIGFPE, SIGBUS, SIGILL, SIGABRT, SIGUSR2}) sigaction(sig, &action, nullptr);
  void* warm[1];
  backtrace(warm, 1);  // loads the unwinder now, not inside the handler
}


// The plugin whose code was running at the fault: the first frame (innermost) in a loaded
// plugin's file.
std::string faulting_plugin(const Board& board) {
  std::lock_guard<std::mutex> lock(g_plugin_files_mutex);
  for (int i = 0; i < board.frames.load() && i < Board::kFrames; ++i)
    if (const auto it = g_plugin_files.find(board.frame[i]); it != g_plugin_files.end()) return it->second;
  return "";
}

// How a worker ended.
struct WorkerEnd {
  enum class Kind { Result, Exception, Died } kind = Kind::Died;
  std::string bytes;  // Result: the computation's bytes; Exception: its message
  std::string death;  // Died: "crashed (SIGSEGV)", "hung: ...", "crashed (exit status 3)"
};

// The worker's message on the pipe: a tag ('R' result, 'E' exception), the length in 8 bytes,
// the bytes. A message that is not whole is not a result (the worker died while writing).
bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= size_t(n);
  }
  return true;
}

[[noreturn]] void worker_main(int fd, Board* board, const std::map<long, RunOutcome>& replayed,
                              const std::function<std::string()>& compute) {
  g_board = board;
  g_replayed_failures = &replayed;
  install_worker_handlers();
  char tag = 'R';
  std::string bytes;
  try {
    bytes = compute();
  } catch (const std::exception& e) {
    tag = 'E';
    bytes = e.what();
  } catch (...) {
    tag = 'E';
    bytes = "a non-standard exception (not derived from std::exception)";
  }
  std::uint64_t size = bytes.size();
  char header[9];
  header[0] = tag;
  std::memcpy(header + 1, &size, 8);
  const bool sent = write_all(fd, header, 9) && write_all(fd, bytes.data(), bytes.size());
  ::close(fd);
  // _exit, not exit: the worker shares the parent's stdio buffers and static objects as they
  // were at the fork; flushing or destroying them here would do the parent's work twice.
  _exit(sent ? 0 : 3);
}

WorkerEnd run_worker(const std::function<std::string()>& compute, const std::map<long, RunOutcome>& replayed,
                     Board& board) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot make a pipe for a worker: ") + std::strerror(errno));
  // What this process buffered for stdout is written now, or a worker that ends by exit()
  // (a plugin's call) would write it a second time.
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw std::runtime_error(std::string("cannot start a worker process: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    worker_main(fds[1], &board, replayed, compute);
  }
  ::close(fds[1]);

  using Clock = std::chrono::steady_clock;
  std::string message;
  auto last_progress = Clock::now();
  long seen_runs = -1, seen_marks = -1, seen_steps = -1;
  bool hung = false, forwarded_interrupt = false;
  for (bool open = true; open;) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    if (ready > 0) {
      char buffer[1 << 16];
      const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
      if (n > 0) message.append(buffer, size_t(n));
      else if (n == 0 || errno != EINTR) open = false;
    }
    if (interrupted() && !forwarded_interrupt) {  // the worker ends its run as interrupted, as in-process
      ::kill(pid, SIGTERM);
      forwarded_interrupt = true;
    }
    const long runs = board.runs_started.load(), marks = board.marks.load(), steps = board.steps.load();
    if (runs != seen_runs || marks != seen_marks || steps != seen_steps) {
      seen_runs = runs, seen_marks = marks, seen_steps = steps;
      last_progress = Clock::now();
    } else if (open && std::chrono::duration<double>(Clock::now() - last_progress).count() > g_settings.time_limit_s) {
      hung = true;
      ::kill(pid, SIGUSR2);  // its handler records the stack
      for (int i = 0; i < 20 && ::waitpid(pid, nullptr, WNOHANG) == 0; ++i) ::usleep(100000);
      ::kill(pid, SIGKILL);
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  WorkerEnd end;
  std::uint64_t size = 0;
  if (!hung && message.size() >= 9) std::memcpy(&size, message.data() + 1, 8);
  if (!hung && WIFEXITED(status) && WEXITSTATUS(status) == 0 && message.size() >= 9 && message.size() - 9 == size) {
    end.kind = message[0] == 'R' ? WorkerEnd::Kind::Result : WorkerEnd::Kind::Exception;
    end.bytes = message.substr(9);
    return end;
  }
  if (hung)
    end.death = "hung: no progress for " + format_g(g_settings.time_limit_s, 3) + " s (the per-run time limit, --time-limit)";
  else if (WIFSIGNALED(status))
    end.death = "crashed (" + signal_name(WTERMSIG(status)) + ")";
  else if (WIFEXITED(status))
    end.death = "crashed (the process exited with status " + std::to_string(WEXITSTATUS(status)) + " before returning its result)";
  else
    end.death = "crashed (the process ended without a result)";
  return end;
}

// A shared, anonymous mapping for one worker's board.
class SharedBoard {
 public:
  SharedBoard() {
    void* p = ::mmap(nullptr, sizeof(Board), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error(std::string("cannot map a worker's board: ") + std::strerror(errno));
    board_ = new (p) Board();
  }
  ~SharedBoard() { ::munmap(board_, sizeof(Board)); }
  Board& board() { return *board_; }
  void reset() {
    board_->~Board();
    new (board_) Board();
  }

 private:
  Board* board_;
};

}  // namespace

std::string signal_name(int sig) {
  const char* name = sigabbrev_np(sig);  // "SEGV"
  return name ? std::string("SIG") + name : "signal " + std::to_string(sig);
}

std::string to_string(IsolationMode mode) {
  switch (mode) {
    case IsolationMode::Plugins: return "plugins";
    case IsolationMode::All: return "all";
    case IsolationMode::None: return "none";
  }
  return "?";
}

std::optional<IsolationMode> isolation_mode_from(const std::string& word) {
  for (auto mode : {IsolationMode::Plugins, IsolationMode::All, IsolationMode::None})
    if (to_string(mode) == word) return mode;
  return std::nullopt;
}

void set_isolation(const IsolationSettings& settings) { g_settings = settings; }
const IsolationSettings& isolation() { return g_settings; }

void name_plugin(const std::string& path, const std::string& plugin_name, const std::string& origin) {
  std::lock_guard<std::mutex> lock(g_plugin_files_mutex);
  g_plugin_files[path] = plugin_name;
  g_plugin_origins.push_back(origin);
}

bool mentions_a_plugin(const std::string& inputs) {
  std::lock_guard<std::mutex> lock(g_plugin_files_mutex);
  for (const auto& origin : g_plugin_origins)
    if (inputs.find(origin) != std::string::npos) return true;
  return false;
}

bool in_isolated_worker() { return g_board != nullptr; }

bool isolates(bool runs_plugin_code) {
  if (in_isolated_worker()) return false;
  return g_settings.mode == IsolationMode::All || (g_settings.mode == IsolationMode::Plugins && runs_plugin_code);
}

std::string run_maybe_isolated(bool runs_plugin_code, const std::string& what, const std::function<std::string()>& compute) {
  if (!isolates(runs_plugin_code)) return compute();
  SharedBoard shared;
  std::map<long, RunOutcome> replayed;  // run index -> the failure it is replayed as
  for (int attempt = 0;; ++attempt) {
    shared.reset();
    const WorkerEnd end = run_worker(compute, replayed, shared.board());
    if (end.kind == WorkerEnd::Kind::Result) return end.bytes;
    if (end.kind == WorkerEnd::Kind::Exception) throw std::runtime_error(what + ": " + end.bytes);
    const Board& board = shared.board();
    const std::string plugin = faulting_plugin(board);
    const std::string in = plugin.empty() ? "" : " in plugin " + plugin;
    if (board.in_run.load() == 0)
      throw JobCrashed(what + " " + end.death + in + " outside any run, so no run can report it as its failure");
    if (attempt == kMaxReplays)
      throw JobCrashed(what + ": " + std::to_string(kMaxReplays + 1) + " of its runs crashed; the last " + end.death + in +
                               ", " + board.where + "; not replayed further");
    // The death as the failure of the run that was going on: after its last accepted step.
    const long steps = board.steps.load();
    replayed[board.runs_started.load()] =
        RunOutcome::failed_at(end.death + in + ", " + board.where, board.t.load(), steps + 1);
  }
}

WatchedRun::WatchedRun(const std::string& where) {
  Board* board = g_board;
  if (!board) return;
  // A run inside a run (integrate() inside measure()) is the same run.
  if (board->in_run.fetch_add(1) > 0) return;
  const long index = ++board->runs_started;
  copy_text(board->where, sizeof board->where, where.c_str());
  board->t.store(0.0);
  board->steps.store(0);
  ++board->marks;
  if (g_replayed_failures)
    if (const auto it = g_replayed_failures->find(index); it != g_replayed_failures->end()) failed_ = it->second;
}

WatchedRun::~WatchedRun() {
  if (Board* board = g_board)
    if (board->in_run.fetch_sub(1) == 1) ++board->marks;
}

void watch_step(double t, long steps) {
  if (Board* board = g_board) {
    board->t.store(t, std::memory_order_relaxed);
    board->steps.store(steps, std::memory_order_relaxed);
  }
}

}  // namespace tb
