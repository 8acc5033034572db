#include "app/jobs/job_transport.hpp"

#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "app/jobs/distributed.hpp"
#include "app/running/job_result.hpp"

#ifdef TB_WITH_MPI
#include <mpi.h>
#endif

namespace tb {

#ifdef TB_WITH_MPI
namespace {

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

}  // namespace

void serve_remote_ranks(size_t remote_threads, const JobIdentity& identity, const std::function<std::optional<size_t>()>& next,
                        const std::function<void(size_t)>& started, const std::function<void(size_t, FinishedJob)>& finished,
                        const std::function<void(size_t, const std::string&)>& failed) {
  const auto& keys = *identity.keys;
  const auto& fingerprints = *identity.fingerprints;
  size_t stopped = 0;
  while (stopped < remote_threads) {
    // Polled, so that a waiting rank 0 leaves its core to the jobs.
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
    FinishedJob f;
    r >> index >> key >> failure >> f.seconds >> f.host >> f.type >> f.storable >> f.rank >> f.bytes;
    if (index >= 0) {
      if (size_t(index) >= keys.size() || keys[size_t(index)] != key)
        throw std::logic_error("rank " + std::to_string(from) + " planned other jobs than rank 0 (job '" + key + "')");
      if (!failure.empty()) failed(size_t(index), failure);
      else finished(size_t(index), std::move(f));
    }
    const auto job = next();
    ResultWriter assign;
    assign << long(job ? long(*job) : -1L) << (job ? keys[*job] : std::string()) << (job ? fingerprints[*job] : std::string());
    if (job) started(*job);
    else ++stopped;
    std::lock_guard<std::mutex> lock(mpi_mutex());
    send(assign.bytes(), from, kTagAssign);
  }
}

void work_for_rank_zero(int rank, const JobIdentity& identity, const std::function<FinishedJob(size_t)>& run) {
  const auto& keys = *identity.keys;
  const auto& fingerprints = *identity.fingerprints;
  long index = -1;
  std::string failure;
  FinishedJob f;
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
    if (size_t(index) >= keys.size() || keys[size_t(index)] != key || fingerprints[size_t(index)] != fingerprint)
      throw std::runtime_error("rank " + std::to_string(rank) + " planned job '" + key +
                               "' from other inputs than rank 0 (another case file, setting or build on this node?)");
    failure.clear();
    f = FinishedJob{};
    try {
      f = run(size_t(index));
    } catch (const std::exception& e) {
      failure = keys[size_t(index)] + " on rank " + std::to_string(rank) + ": " + e.what();
    }
  }
}

#else

void serve_remote_ranks(size_t, const JobIdentity&, const std::function<std::optional<size_t>()>&,
                        const std::function<void(size_t)>&, const std::function<void(size_t, FinishedJob)>&,
                        const std::function<void(size_t, const std::string&)>&) {}
void work_for_rank_zero(int, const JobIdentity&, const std::function<FinishedJob(size_t)>&) {}

#endif

}  // namespace tb
