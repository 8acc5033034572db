#include "python/session.hpp"

#include <dlfcn.h>

#include <filesystem>

#include "suite/catalogue.hpp"

namespace tb::python {

namespace {

// The folder this shared object was loaded from.
std::filesystem::path module_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&module_dir), &info) == 0 || !info.dli_fname) return std::filesystem::current_path();
  return std::filesystem::weakly_canonical(info.dli_fname).parent_path();
}

}  // namespace

Session& session() {
  static Session* s = [] {
    auto* made = new Session;  // never destroyed: plugins' and Python's factories live as long as the interpreter
    made->catalogue = suite_catalogue();
    const auto here = module_dir();
    // BUILD/python/tetherbench -> BUILD; PREFIX/lib/python3/dist-packages/tetherbench -> PREFIX/lib.
    const auto two_up = here.parent_path().parent_path();
    made->data = find_data_paths(std::nullopt, {two_up.string(), two_up.parent_path().string()});
    return made;
  }();
  return *s;
}

}  // namespace tb::python
