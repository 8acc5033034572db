#pragma once
// The Python package's session, what the command line sets up per process (cli/tetherbench.cpp):
// the catalogue (the suite's, the plugins loaded with tetherbench.load_plugin, the integrators
// registered from Python) and where the bundled data are. One per interpreter, made on first use.

#include <set>
#include <string>

#include "suite/session.hpp"

namespace tb::python {

// The command line's session (suite/session.hpp), with what only Python adds to it.
struct Session : tb::Session {
  std::set<std::string> python_integrators;  // registered from Python (may be registered anew)
};

// The session; its data folder found from TETHERBENCH_DATA_DIR, else from where this module lies:
// BUILD/python/tetherbench/ in a build tree (BUILD/share/tetherbench), PREFIX/lib/python3/dist-
// packages/tetherbench/ installed (PREFIX/share/tetherbench).
Session& session();

}  // namespace tb::python
