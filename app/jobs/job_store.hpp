#pragma once
// The job store: one file per finished job under <out>/.jobs, named by a hash of the job's
// identity, holding its label, fingerprint (which carries the build's identity,
// app/common/build_identity.hpp), wall time, host, the build that ran it and when, and the result bytes.
// Written then renamed, so a killed report leaves only whole files; a file whose label or
// fingerprint differs from the job's (stale), or that is not whole, is never reused.

#include <mutex>
#include <optional>
#include <string>

namespace tb {

// One finished job, as kept in memory, sent between MPI ranks and stored.
struct FinishedJob {
  std::string bytes;      // the job's result (StudyJob::run)
  double seconds = 0.0;   // its wall time
  std::string host, type;  // where it ran: host name and CPU model
  bool storable = false;  // not cut short by an interrupt
  long rank = -1;         // the MPI rank that ran it now (-1: reused from the store)
  std::string build;        // the build that ran it (describe(build_identity()) then)
  std::string finished_at;  // when it finished ("YYYY-MM-DD HH:MM:SS UTC")
};

class JobStore {
 public:
  explicit JobStore(std::string dir) : dir_(std::move(dir)) {}  // "": stores nothing
  // The stored result of the job `key` if its label and fingerprint match.
  std::optional<FinishedJob> load(const std::string& key, const std::string& label, const std::string& fingerprint) const;
  // Stores a storable result (thread-safe).
  void save(const std::string& key, const std::string& label, const std::string& fingerprint, const FinishedJob& job);

 private:
  std::string path(const std::string& key) const;
  std::string dir_;
  std::mutex mutex_;
};

}  // namespace tb
