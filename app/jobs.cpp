#include "app/jobs.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <numeric>
#include <set>
#include <thread>

#include "app/distributed.hpp"
#include "app/fingerprint.hpp"
#include "app/interrupt.hpp"
#include "app/job_result.hpp"
#include "app/parallel.hpp"
#include "app/runner.hpp"

#ifdef TB_WITH_MPI
#include <mpi.h>
#endif

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

namespace {

// The machine's type for the timings' provenance: the CPU model of /proc/cpuinfo.
const std::string& host_type() {
  static const std::string type = [] {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);)
      if (line.rfind("model name", 0) == 0) {
        const auto colon = line.find(':');
        if (colon != std::string::npos) {
          std::string t = line.substr(colon + 1);
          while (!t.empty() && t.front() == ' ') t.erase(t.begin());
          return t;
        }
      }
    return std::string("unknown");
  }();
  return type;
}

// One finished job, as kept in memory, sent between ranks and stored.
struct Finished {
  std::string bytes;
  double seconds = 0.0;
  std::string host, type;
  bool storable = false;  // not cut short by an interrupt
  long rank = -1;         // the MPI rank that ran it now (-1: reused from the store)
};

// The resume store: <dir>/<16 hex digits of the job's key>.job, whole files only.
class JobStore {
 public:
  explicit JobStore(std::string dir) : dir_(std::move(dir)) {}

  std::optional<Finished> load(const std::string& key, const std::string& label, const std::string& fingerprint) const {
    if (dir_.empty()) return std::nullopt;
    std::ifstream in(path(key), std::ios::binary);
    if (!in) return std::nullopt;
    std::stringstream s;
    s << in.rdbuf();
    try {
      const std::string text = s.str();
      ResultReader r(text);
      std::string magic, stored_label, stored_fingerprint;
      Finished f;
      r >> magic >> stored_label >> stored_fingerprint >> f.seconds >> f.host >> f.type >> f.bytes;
      r.expect_end();
      if (magic != kMagic || stored_label != label || stored_fingerprint != fingerprint) return std::nullopt;  // stale
      return f;
    } catch (const std::exception&) {
      return std::nullopt;  // not a whole result: run the job again
    }
  }

  void save(const std::string& key, const std::string& label, const std::string& fingerprint, const Finished& f) {
    if (dir_.empty() || !f.storable) return;
    std::lock_guard<std::mutex> lock(mutex_);
    std::filesystem::create_directories(dir_);
    ResultWriter w;
    w << kMagic << label << fingerprint << f.seconds << f.host << f.type << f.bytes;
    const std::string final_path = path(key), temporary = final_path + ".tmp";
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      out << w.bytes();
      out.flush();
      if (!out) throw std::runtime_error("cannot write " + temporary);
    }
    std::filesystem::rename(temporary, final_path);
  }

 private:
  static constexpr const char* kMagic = "tetherbench job result 2";
  std::string path(const std::string& key) const { return (std::filesystem::path(dir_) / (fingerprint_of(key) + ".job")).string(); }
  std::string dir_;
  std::mutex mutex_;
};

#ifdef TB_WITH_MPI
constexpr int kTagRequest = 1, kTagAssign = 2;

std::string receive(int source, int tag, int* from = nullptr) {
  MPI_Status status;
  MPI_Probe(source, tag, MPI_COMM_WORLD, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string bytes(size_t(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_CHAR, status.MPI_SOURCE, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (from) *from = status.MPI_SOURCE;
  return bytes;
}
void send(const std::string& bytes, int destination, int tag) {
  MPI_Send(bytes.data(), int(bytes.size()), MPI_CHAR, destination, tag, MPI_COMM_WORLD);
}
#endif

}  // namespace

std::string job_fingerprint(const StudyJob& job, const std::string& version) {
  return fingerprint_of("version=" + version + "\nlabel=" + job.label + "\ninputs=" + job.inputs);
}

JobsDone run_jobs(std::vector<StudyJob> jobs, const JobOptions& options) {
  const size_t n = jobs.size();
  const unsigned workers = std::max(1u, options.workers);
  // Identity: the label, with its occurrence for a label given more than once.
  std::vector<std::string> keys(n), fingerprints(n);
  std::map<std::string, int> seen;
  for (size_t i = 0; i < n; ++i) {
    const int k = seen[jobs[i].label]++;
    keys[i] = k == 0 ? jobs[i].label : jobs[i].label + " #" + std::to_string(k + 1);
    fingerprints[i] = job_fingerprint(jobs[i], options.version);
  }
  const int rank = process_rank(), ranks = process_count();
  JobsDone done;
  done.gathering = rank == 0;
  done.seconds.assign(n, 0.0);
  done.hosts.assign(n, "");
  done.by_rank.assign(size_t(ranks), 0);
  std::vector<std::optional<Finished>> results(n);
  JobStore store(rank == 0 ? options.store_dir : std::string());
  if (rank == 0 && options.resume)
    for (size_t i = 0; i < n; ++i)
      if ((results[i] = store.load(keys[i], jobs[i].label, fingerprints[i]))) ++done.reused;

  // The jobs to run, longest expected first (every rank computes the same list).
  bool in_seconds = false;
  const std::vector<double> estimate = estimated_job_costs(jobs, options.stored, in_seconds);
  std::vector<size_t> order;
  for (size_t i = 0; i < n; ++i)
    if (!results[i]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return estimate[a] > estimate[b]; });
  done.ran = order.size();

  auto run_one = [&](size_t i) {
    Finished f;
    const auto start = Clock::now();
    f.bytes = jobs[i].run();
    f.seconds = seconds_since(start);
    f.host = host_name();
    f.type = host_type();
    f.storable = !interrupted();
    f.rank = rank;
    return f;
  };

  if (rank == 0) {
    // The progress display over the jobs that run now (index into `order`).
    std::vector<StudyJob> shown;
    std::vector<double> shown_estimate;
    std::vector<size_t> position(n, 0);
    for (size_t k = 0; k < order.size(); ++k) {
      position[order[k]] = k;
      shown.push_back({jobs[order[k]].label, jobs[order[k]].expected_cost, "", {}, {}});
      shown_estimate.push_back(estimate[order[k]]);
    }
    if (done.reused > 0 || options.resume)
      std::fprintf(stderr, "  resume: %zu of %zu jobs reused from %s, %zu to run\n", done.reused, n,
                   options.store_dir.c_str(), order.size());
    Progress progress(shown, shown_estimate, in_seconds, workers * unsigned(ranks));
    std::thread display;
    if (!options.quiet) display = std::thread([&] { progress.show_until_stopped(); });
    std::mutex queue_mutex;
    size_t next = 0;
    std::exception_ptr error;
    auto take = [&]() -> std::optional<size_t> {
      std::lock_guard<std::mutex> lock(queue_mutex);
      if (next >= order.size() || error) return std::nullopt;
      return order[next++];
    };
    // For the resume test: TETHERBENCH_TEST_STOP_AFTER_JOBS=N sends this process SIGTERM once N
    // jobs have finished here, as a kill midway would (the jobs running then end interrupted).
    const char* stop_env = std::getenv("TETHERBENCH_TEST_STOP_AFTER_JOBS");
    const long stop_after = stop_env ? std::atol(stop_env) : 0;
    std::atomic<long> finished_here{0};
    auto finish = [&](size_t i, Finished f) {
      store.save(keys[i], jobs[i].label, fingerprints[i], f);
      if (stop_after > 0 && ++finished_here == stop_after) std::raise(SIGTERM);
      progress.finished(position[i], f.seconds);
      std::lock_guard<std::mutex> lock(queue_mutex);
      results[i] = std::move(f);
    };
#ifdef TB_WITH_MPI
    // Serves the other ranks: each of their threads asks for a job (sending the result of its
    // previous one) until told to stop. Polled, so that a waiting rank 0 leaves its core to the jobs.
    std::thread server;
    if (ranks > 1)
      server = std::thread([&] {
        size_t stopped = 0;
        const size_t remote_threads = size_t(ranks - 1) * workers;
        while (stopped < remote_threads) {
          int flag = 0, from = 0;
          {
            std::lock_guard<std::mutex> lock(mpi_mutex());
            MPI_Iprobe(MPI_ANY_SOURCE, kTagRequest, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
          }
          if (!flag) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            continue;
          }
          std::string request;
          {
            std::lock_guard<std::mutex> lock(mpi_mutex());
            request = receive(MPI_ANY_SOURCE, kTagRequest, &from);
          }
          ResultReader r(request);
          long index = -1;
          std::string key, failure;
          Finished f;
          r >> index >> key >> failure >> f.seconds >> f.host >> f.type >> f.storable >> f.rank >> f.bytes;
          if (index >= 0) {
            if (size_t(index) >= n || keys[size_t(index)] != key)
              throw std::logic_error("rank " + std::to_string(from) + " planned other jobs than rank 0 (job '" + key + "')");
            if (!failure.empty()) {
              std::lock_guard<std::mutex> lock(queue_mutex);
              if (!error) error = std::make_exception_ptr(std::runtime_error(failure));
              progress.finished(position[size_t(index)], f.seconds);
            } else {
              finish(size_t(index), std::move(f));
            }
          }
          const auto job = take();
          ResultWriter assign;
          assign << long(job ? long(*job) : -1L) << (job ? keys[*job] : std::string())
                 << (job ? fingerprints[*job] : std::string());
          if (job) progress.started(position[*job]);
          else ++stopped;
          std::lock_guard<std::mutex> lock(mpi_mutex());
          send(assign.bytes(), from, kTagAssign);
        }
      });
#endif
    try {
      run_parallel(workers, workers, [&](size_t) {
        while (const auto i = take()) {
          progress.started(position[*i]);
          try {
            finish(*i, run_one(*i));
          } catch (...) {
            progress.finished(position[*i], 0.0);
            std::lock_guard<std::mutex> lock(queue_mutex);
            if (!error) error = std::current_exception();
          }
        }
      });
    } catch (...) {
      std::lock_guard<std::mutex> lock(queue_mutex);
      if (!error) error = std::current_exception();
    }
#ifdef TB_WITH_MPI
    if (server.joinable()) server.join();
#endif
    progress.stop();
    if (display.joinable()) display.join();
    if (error) std::rethrow_exception(error);
    for (size_t i = 0; i < n; ++i) {
      if (!results[i]) throw std::logic_error("job '" + keys[i] + "' has no result");
      done.seconds[i] = results[i]->seconds;
      done.hosts[i] = results[i]->host;
      done.host_types[results[i]->host] = results[i]->type;
      if (results[i]->rank >= 0) ++done.by_rank[size_t(results[i]->rank)];
      if (results[i]->rank >= 0 && !results[i]->storable) ++done.cut_short;
    }
    for (size_t i = 0; i < n; ++i) jobs[i].apply(results[i]->bytes);
    return done;
  }

#ifdef TB_WITH_MPI
  // Another rank: `workers` threads ask rank 0 for jobs, each sending its previous result.
  run_parallel(workers, workers, [&](size_t) {
    long index = -1;
    std::string failure;
    Finished f;
    while (true) {
      ResultWriter request;
      request << index << (index >= 0 ? keys[size_t(index)] : std::string()) << failure << f.seconds << f.host << f.type
              << f.storable << f.rank << f.bytes;
      std::string reply;
      {
        std::lock_guard<std::mutex> lock(mpi_mutex());
        send(request.bytes(), 0, kTagRequest);
        reply = receive(0, kTagAssign);
      }
      ResultReader r(reply);
      std::string key, fingerprint;
      r >> index >> key >> fingerprint;
      if (index < 0) return;
      // The same job here: its label and its inputs (case files, settings, version) as rank 0 has them.
      if (size_t(index) >= n || keys[size_t(index)] != key || fingerprints[size_t(index)] != fingerprint)
        throw std::runtime_error("rank " + std::to_string(rank) + " planned job '" + key +
                                 "' from other inputs than rank 0 (another case file, setting or build on this node?)");
      failure.clear();
      f = Finished{};
      try {
        f = run_one(size_t(index));
      } catch (const std::exception& e) {
        failure = keys[size_t(index)] + " on rank " + std::to_string(rank) + ": " + e.what();
      }
    }
  });
#endif
  return done;
}

std::vector<double> run_jobs(std::vector<StudyJob> jobs, unsigned workers, const StoredJobSeconds& stored) {
  JobOptions options;
  options.workers = workers;
  options.stored = stored;
  return run_jobs(std::move(jobs), options).seconds;
}

}  // namespace tb
