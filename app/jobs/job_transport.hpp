#pragma once
// How the job pool talks between MPI ranks (app/jobs/distributed.hpp): rank 0 serves, every thread of
// another rank asks for a job, sending the result of its previous one, until told to stop. The
// messages are ResultWriter bytes; a job is named by its index, key and fingerprint, so that a
// rank that planned other jobs (another case file, setting or build on its node) is caught.
// Without MPI these do nothing (one process).

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/jobs/job_store.hpp"

namespace tb {

// A job's identity as every rank planned it.
struct JobIdentity {
  const std::vector<std::string>* keys = nullptr;
  const std::vector<std::string>* fingerprints = nullptr;
};

// Rank 0: answers the other ranks' requests until each of their `remote_threads` threads has
// been told to stop. `next()` hands out the next job to run (nullopt: none left); `finished`
// receives a remote job's result, `failed` a remote job's exception text; `started` is told
// when a job is handed out.
void serve_remote_ranks(size_t remote_threads, const JobIdentity& identity, const std::function<std::optional<size_t>()>& next,
                        const std::function<void(size_t)>& started, const std::function<void(size_t, FinishedJob)>& finished,
                        const std::function<void(size_t, const std::string&)>& failed);

// Another rank: one thread's loop, asking rank 0 for jobs and running them with `run`
// (whose exception is sent back as that job's failure).
void work_for_rank_zero(int rank, const JobIdentity& identity, const std::function<FinishedJob(size_t)>& run);

}  // namespace tb
