#include "app/jobs/jobs.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "app/common/build_identity.hpp"
#include "app/jobs/distributed.hpp"
#include "app/common/fingerprint.hpp"
#include "app/running/interrupt.hpp"
#include "app/running/isolation.hpp"
#include "app/jobs/job_progress.hpp"
#include "app/running/job_result.hpp"
#include "app/jobs/job_store.hpp"
#include "app/jobs/job_transport.hpp"
#include "app/common/machine.hpp"
#include "app/jobs/parallel.hpp"
#include "app/running/runner.hpp"  // host_name
#include "core/format.hpp"  // utc_now

namespace tb {

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

std::string job_fingerprint(const StudyJob& job, const std::string& version) {
  return fingerprint_of(job_inputs(job.inputs, {{"version", version}, {"label", job.label}}));
}

namespace {

// Identity: the label, with its occurrence for a label given more than once, and the fingerprint.
void identify(const std::vector<StudyJob>& jobs, const std::string& version, std::vector<std::string>& keys,
              std::vector<std::string>& fingerprints) {
  std::map<std::string, int> seen;
  for (const auto& job : jobs) {
    const int k = seen[job.label]++;
    keys.push_back(k == 0 ? job.label : job.label + " #" + std::to_string(k + 1));
    fingerprints.push_back(job_fingerprint(job, version));
  }
}

FinishedJob run_one(StudyJob& job, int rank) {
  FinishedJob f;
  const auto start = std::chrono::steady_clock::now();
  // A job that runs a plugin's code runs in a worker process of its own (app/running/isolation.hpp).
  f.bytes = run_maybe_isolated(mentions_a_plugin(job.inputs), "job '" + job.label + "'", job.run);
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  f.host = host_name();
  f.type = host_type();
  f.storable = !interrupted();
  f.rank = rank;
  return f;
}

// The jobs without a result, longest expected first (every rank computes the same list).
std::vector<size_t> longest_first(const std::vector<double>& estimate, const std::vector<std::optional<FinishedJob>>& results) {
  std::vector<size_t> order;
  for (size_t i = 0; i < results.size(); ++i)
    if (!results[i]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return estimate[a] > estimate[b]; });
  return order;
}

// Each job's time, host and rank into `done` (every job must have a result by now).
void tally(const std::vector<std::optional<FinishedJob>>& results, const std::vector<std::string>& keys, JobsDone& done) {
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i]) throw std::logic_error("job '" + keys[i] + "' has no result");
    done.seconds[i] = results[i]->seconds;
    done.hosts[i] = results[i]->host;
    done.builds[i] = results[i]->build;
    done.finished_at[i] = results[i]->finished_at;
    done.reused_flags[i] = results[i]->rank < 0;
    done.host_types[results[i]->host] = results[i]->type;
    if (results[i]->rank >= 0) ++done.by_rank[size_t(results[i]->rank)];
    if (results[i]->rank >= 0 && !results[i]->storable) ++done.cut_short;
  }
}

// Every per-job column sized for `n` jobs and the per-rank counts for `ranks`, before any job ran.
JobsDone empty_jobs_done(size_t n, int rank, int ranks) {
  JobsDone done;
  done.gathering = rank == 0;
  done.seconds.assign(n, 0.0);
  done.hosts.assign(n, "");
  done.builds.assign(n, "");
  done.finished_at.assign(n, "");
  done.reused_flags.assign(n, false);
  done.by_rank.assign(size_t(ranks), 0);
  return done;
}

// Another MPI rank's whole part: `workers` threads ask rank 0 for jobs and send back their results.
void work_for_rank_zero_on_threads(std::vector<StudyJob>& jobs, unsigned workers, int rank, const JobIdentity& identity) {
  run_parallel(workers, workers, [&](size_t) {
    work_for_rank_zero(rank, identity, [&](size_t i) { return run_one(jobs[i], rank); });
  });
}

// The stored results whose fingerprint still matches, each counted in `reused`.
void load_stored_results(const JobStore& store, const std::vector<StudyJob>& jobs, const std::vector<std::string>& keys,
                         const std::vector<std::string>& fingerprints, std::vector<std::optional<FinishedJob>>& results,
                         size_t& reused) {
  for (size_t i = 0; i < results.size(); ++i)
    if ((results[i] = store.load(keys[i], jobs[i].label, fingerprints[i]))) ++reused;
}

// The progress display over the jobs that run now, in `order`; `position` maps a job to its row.
// Returned as a prvalue: the display holds a mutex and is neither copied nor moved.
JobProgress progress_over(const std::vector<StudyJob>& jobs, const std::vector<double>& estimate,
                          const std::vector<size_t>& order, bool in_seconds, unsigned threads, std::vector<size_t>& position) {
  std::vector<std::string> shown_labels;
  std::vector<double> shown_estimate;
  for (size_t k = 0; k < order.size(); ++k) {
    position[order[k]] = k;
    shown_labels.push_back(jobs[order[k]].label);
    shown_estimate.push_back(estimate[order[k]]);
  }
  return JobProgress(shown_labels, shown_estimate, in_seconds, threads);
}

// A job's failure, sorted under the queue's lock (held by the caller): a crashed worker is kept
// aside so that the other jobs go on, any other failure stops the queue.
void record_failure(const std::exception_ptr& e, std::exception_ptr& crashed, std::exception_ptr& error) {
  try {
    std::rethrow_exception(e);
  } catch (const JobCrashed&) {  // a plugin's fault: the other jobs go on and are stored
    if (!crashed) crashed = e;
    return;
  } catch (...) {
  }
  if (!error) error = e;
}

// Rank 0's service to the other ranks' threads (run on a thread of its own): hands out jobs and
// takes in their results and failures.
template <class Take, class Finish, class Fail>
void serve_other_ranks(size_t remote_threads, const JobIdentity& identity, Take& take, JobProgress& progress,
                       const std::vector<size_t>& position, Finish& finish, Fail& fail) {
  serve_remote_ranks(
      remote_threads, identity, take, [&](size_t i) { progress.started(position[i]); }, finish,
      [&](size_t i, const std::string& failure) { fail(i, std::make_exception_ptr(std::runtime_error(failure))); });
}

// This rank's own `workers` threads: each takes the next job until none is left or one failed.
template <class Take, class Finish, class Fail>
void run_own_jobs(std::vector<StudyJob>& jobs, unsigned workers, int rank, Take& take, JobProgress& progress,
                  const std::vector<size_t>& position, Finish& finish, Fail& fail) {
  run_parallel(workers, workers, [&](size_t) {
    while (const auto i = take()) {
      progress.started(position[*i]);
      try {
        finish(*i, run_one(jobs[*i], rank));
      } catch (...) {
        fail(*i, std::current_exception());
      }
    }
  });
}

}  // namespace

JobsDone run_jobs(std::vector<StudyJob> jobs, const JobOptions& options) {
  const size_t n = jobs.size();
  const unsigned workers = std::max(1u, options.workers);
  std::vector<std::string> keys, fingerprints;
  identify(jobs, options.version, keys, fingerprints);
  const JobIdentity identity{&keys, &fingerprints};
  const int rank = process_rank(), ranks = process_count();
  JobsDone done = empty_jobs_done(n, rank, ranks);

  if (rank != 0) {  // another MPI rank: `workers` threads ask rank 0 for jobs
    work_for_rank_zero_on_threads(jobs, workers, rank, identity);
    return done;
  }

  std::vector<std::optional<FinishedJob>> results(n);
  JobStore store(options.store_dir);
  if (options.resume) load_stored_results(store, jobs, keys, fingerprints, results, done.reused);

  bool in_seconds = false;
  const std::vector<double> estimate = estimated_job_costs(jobs, options.stored, in_seconds);
  const std::vector<size_t> order = longest_first(estimate, results);
  done.ran = order.size();
  if (done.reused > 0 || options.resume)
    std::fprintf(stderr, "  resume: %zu of %zu jobs reused from %s, %zu to run\n", done.reused, n, options.store_dir.c_str(),
                 order.size());

  // The progress display over the jobs that run now (index into `order`).
  std::vector<size_t> position(n, 0);
  JobProgress progress = progress_over(jobs, estimate, order, in_seconds, workers * unsigned(ranks), position);
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
  const std::string this_build = describe(build_identity());
  auto finish = [&](size_t i, FinishedJob f) {  // on this process, for its own jobs and the other ranks'
    f.build = this_build;  // the other ranks run the same build: their fingerprints matched this one's
    f.finished_at = utc_now();
    store.save(keys[i], jobs[i].label, fingerprints[i], f);
    count_finished_job_for_resume_test();
    progress.finished(position[i], f.seconds);
    std::lock_guard<std::mutex> lock(queue_mutex);
    results[i] = std::move(f);
  };
  std::exception_ptr crashed;  // the first job without a result because its worker crashed
  auto fail = [&](size_t i, std::exception_ptr e) {
    progress.finished(position[i], 0.0);
    std::lock_guard<std::mutex> lock(queue_mutex);
    record_failure(e, crashed, error);
  };
  // The other ranks' threads are served by one thread here while this rank's own run jobs too.
  std::thread server;
  if (ranks > 1)
    server = std::thread(
        [&] { serve_other_ranks(size_t(ranks - 1) * workers, identity, take, progress, position, finish, fail); });
  try {
    run_own_jobs(jobs, workers, rank, take, progress, position, finish, fail);
  } catch (...) {
    std::lock_guard<std::mutex> lock(queue_mutex);
    if (!error) error = std::current_exception();
  }
  if (server.joinable()) server.join();
  progress.stop();
  if (display.joinable()) display.join();
  if (error) std::rethrow_exception(error);
  if (crashed) std::rethrow_exception(crashed);

  tally(results, keys, done);
  for (size_t i = 0; i < n; ++i) jobs[i].apply(results[i]->bytes);
  return done;
}

std::vector<double> run_jobs(std::vector<StudyJob> jobs, unsigned workers, const StoredJobSeconds& stored) {
  JobOptions options;
  options.workers = workers;
  options.stored = stored;
  return run_jobs(std::move(jobs), options).seconds;
}

}  // namespace tb
