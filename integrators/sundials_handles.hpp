#pragma once
// Owning handles for the SUNDIALS C objects the SUNDIALS integrators (IDA, CVODE) use: each
// is a unique_ptr with the matching free function, so every object is released exactly once
// on every path (constructor failures included). Declare them in creation order: the context
// first (it must outlive everything made with it), the solver memory last (it refers to the
// vectors, the matrix and the linear and nonlinear solvers, so it is freed before them).

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nonlinearsolver.h>

#include <Eigen/Core>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>

namespace tb::sundials {

struct ContextFree {
  void operator()(SUNContext ctx) const { SUNContext_Free(&ctx); }
};
struct VectorFree {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
struct MatrixFree {
  void operator()(SUNMatrix A) const { SUNMatDestroy(A); }
};
struct LinearSolverFree {
  void operator()(SUNLinearSolver LS) const { SUNLinSolFree(LS); }
};
struct NonlinearSolverFree {
  void operator()(SUNNonlinearSolver NLS) const { SUNNonlinSolFree(NLS); }
};

// The handle types are pointers to incomplete structs; unique_ptr wants the pointee type.
using Context = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextFree>;
using Vector = std::unique_ptr<std::remove_pointer_t<N_Vector>, VectorFree>;
using Matrix = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixFree>;
using LinearSolver = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, LinearSolverFree>;
using NonlinearSolver = std::unique_ptr<std::remove_pointer_t<SUNNonlinearSolver>, NonlinearSolverFree>;

// A solver memory (IDA's, CVODE's) freed by `Free(void**)`.
template <void (*Free)(void**)>
struct MemoryFree {
  void operator()(void* mem) const { Free(&mem); }
};
template <void (*Free)(void**)>
using Memory = std::unique_ptr<void, MemoryFree<Free>>;

// IDAGetReturnFlagName and CVodeGetReturnFlagName return a malloc'ed string that the caller
// must free.
inline std::string flag_name(char* malloced_name, const char* solver, long flag) {
  std::unique_ptr<char, decltype(&std::free)> name(malloced_name, &std::free);
  return name ? std::string(name.get()) : std::string(solver) + " flag " + std::to_string(flag);
}

// A serial N_Vector's data as an Eigen vector (no copy).
inline Eigen::Map<Eigen::VectorXd> view(N_Vector v) {
  return {N_VGetArrayPointer(v), static_cast<Eigen::Index>(N_VGetLength(v))};
}

// Whether a dense-output request at t is the end of the last step t_now: the runner asks for
// grid times up to 1e-9 h past a step's end (its round-off slack) and SUNDIALS' own fuzz is
// ~1e-14 t, so such times are answered with the step's state rather than by extrapolating.
// h is the larger of the initial step and the last step's length.
inline bool at_step_end(double t, double t_now, double h) { return t == t_now || (t > t_now && t - t_now <= 1e-9 * h); }

}  // namespace tb::sundials
