#pragma once
// The suite's processes under MPI. Built with MPI (CMake found it: TB_WITH_MPI) and started by
// mpirun/srun with K > 1 ranks, `tetherbench table|report|study` distributes its job list
// (app/jobs/jobs.hpp): rank 0 hands the next longest job to whichever rank asks, runs jobs on its
// own threads too, gathers every result and alone writes the outputs. Without MPI, or started
// alone, there is one process of rank 0.

#include <mutex>
#include <string>

namespace tb {

// Starts MPI when the build has it (threads may talk to it one at a time); a no-op otherwise.
void distributed_init(int* argc, char*** argv);
// Ends MPI (every rank calls it once before returning from main).
void distributed_finalize();
// Ends every rank with `status` (MPI_Abort): an error on one rank must not leave the others
// waiting for it. Returns `status` without MPI or with one rank.
int distributed_abort(int status);
int process_rank();   // 0 without MPI
int process_count();  // 1 without MPI
bool built_with_mpi();
// The MPI library's own version line ("Open MPI v4.1.4, ..." up to the first comma).
std::string mpi_library_version();
// Held around every MPI call: threads take turns (MPI_THREAD_SERIALIZED).
std::mutex& mpi_mutex();

}  // namespace tb
