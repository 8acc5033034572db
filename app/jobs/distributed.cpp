#include "app/jobs/distributed.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#ifdef TB_WITH_MPI
#include <mpi.h>
#endif

namespace tb {

std::mutex& mpi_mutex() {
  static std::mutex m;
  return m;
}

#ifdef TB_WITH_MPI

namespace {
bool g_started = false;
int g_rank = 0, g_count = 1;
}  // namespace

void distributed_init(int* argc, char*** argv) {
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
    throw std::runtime_error("MPI_Init_thread failed");
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error("this MPI library does not let threads take turns (MPI_THREAD_SERIALIZED)");
  }
  g_started = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_count);
}

void distributed_finalize() {
  if (!g_started) return;
  g_started = false;
  // The other ranks wait here while rank 0 writes the report (benchmarks, plots): asleep,
  // polling a non-blocking barrier, rather than spinning in MPI_Finalize on cores it measures on.
  MPI_Request barrier;
  MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
  for (int done = 0; !done;) {
    MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  MPI_Finalize();
}

int distributed_abort(int status) {
  if (g_started && g_count > 1) MPI_Abort(MPI_COMM_WORLD, status);
  return status;
}

int process_rank() { return g_rank; }
int process_count() { return g_count; }
bool built_with_mpi() { return true; }

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);  // may be called before MPI_Init
  std::string version(text, size_t(length));
  const auto eol = version.find_first_of("\n\r,");
  return version.substr(0, eol);
}

#else

void distributed_init(int*, char***) {}
void distributed_finalize() {}
int distributed_abort(int status) { return status; }
int process_rank() { return 0; }
int process_count() { return 1; }
bool built_with_mpi() { return false; }
std::string mpi_library_version() { return "none (built without MPI)"; }

#endif

}  // namespace tb
