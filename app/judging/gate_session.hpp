#pragma once
// What `tetherbench gate` does, once, for the command line and for tetherbench.gate in the Python
// package: check the cases' short runs against an envelope file and each fixed-step integrator's
// order (on one case per model), or, recording, re-measure the envelopes and rewrite the file
// (refused, nothing written, while a run fails that the file does not expect to fail that way,
// unless accept_failures). The caller prints.

#include <optional>
#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/common/data_paths.hpp"
#include "app/judging/gates.hpp"

namespace tb {

struct GateRequest {
  std::vector<std::string> integrators;  // --integrator: only these (default all); recording keeps the others' rows
  std::optional<std::string> envelopes;  // --envelopes; default: the bundled reference/envelopes.csv
  bool record = false;                   // --record
  bool accept_failures = false;          // --accept-failures (with record only)
  // The command that records into the file in use, as a failed gate's message suggests it,
  // without the --envelopes the request adds ("tetherbench --plugin P gate --record CASE").
  std::string record_command;
};

struct GateOutcome {
  std::string file;               // the envelope file used
  std::vector<GateCheck> checks;  // checking: the envelopes case by case, then the orders model by model
  // Recording:
  bool recorded = false;              // the file was written
  std::vector<std::string> refused;   // failing runs it does not expect to fail that way (nothing written)
  long expected_failures = 0;         // runs recorded as expected to fail
  bool interrupted = false;           // a signal cut the measurements short: nothing recorded
};

// InputError (before anything runs) on a bad request: --accept-failures without --record, an
// empty or unreadable envelope file, recording into an installation's bundled envelopes.
GateOutcome run_gates(const Catalogue& catalogue, const DataPaths& data, const std::vector<Case>& cases,
                      const GateRequest& request);

}  // namespace tb
