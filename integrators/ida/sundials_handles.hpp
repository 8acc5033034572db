#pragma once
// Owning handles for the SUNDIALS C objects the IDA integrator uses: each is a unique_ptr
// with the matching free function, so every object is released exactly once on every path
// (constructor failures included). Declare them in creation order: the context first (it
// must outlive everything made with it), the IDA memory last (it refers to the vectors, the
// matrix and the linear solver, so it is freed before them).

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

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
struct IdaFree {
  void operator()(void* mem) const { IDAFree(&mem); }
};

// The handle types are pointers to incomplete structs; unique_ptr wants the pointee type.
using Context = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextFree>;
using Vector = std::unique_ptr<std::remove_pointer_t<N_Vector>, VectorFree>;
using Matrix = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixFree>;
using LinearSolver = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, LinearSolverFree>;
using IdaMemory = std::unique_ptr<void, IdaFree>;

// IDAGetReturnFlagName returns a malloc'ed string that the caller must free.
inline std::string ida_flag_name(long flag) {
  std::unique_ptr<char, decltype(&std::free)> name(IDAGetReturnFlagName(flag), &std::free);
  return name ? std::string(name.get()) : "IDA flag " + std::to_string(flag);
}

}  // namespace tb::sundials
