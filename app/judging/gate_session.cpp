#include "app/judging/gate_session.hpp"
#include "app/common/run_label_parts.hpp"

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "app/input/integrator_selection.hpp"
#include "app/running/interrupt.hpp"
#include "app/judging/order_gate.hpp"
#include "app/common/output_folder.hpp"
#include "app/input/reference_data.hpp"
#include "core/table_reader.hpp"  // InputError

namespace fs = std::filesystem;

namespace tb {

namespace {

// Whether a file lies inside the data folder of an installation (PREFIX/share/tetherbench, or a
// copy given as --data-dir): the bundled data of a source clone's build tree resolve to the
// clone's own folders, next to its top-level CMakeLists.txt, which an installation does not hold.
bool inside_installation(const std::string& file, const DataPaths& data) {
  std::error_code ec;
  const fs::path reference = fs::weakly_canonical(data.reference, ec);
  if (fs::exists(reference.parent_path() / "CMakeLists.txt")) return false;  // a source clone
  const fs::path root = fs::weakly_canonical(data.root, ec), path = fs::weakly_canonical(fs::absolute(file), ec);
  const auto [end, rest] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  return end == root.end();
}

}  // namespace

GateOutcome run_gates(const Catalogue& catalogue, const DataPaths& data, const std::vector<Case>& cases,
                      const GateRequest& request) {
  if (request.accept_failures && !request.record)
    throw InputError("--accept-failures: goes with --record only (it says what to record)");
  Catalogue gated = catalogue;
  gated.integrators = chosen_integrators(catalogue, request.integrators);
  GateOutcome out;
  const std::string& file = out.file = request.envelopes ? *request.envelopes : data.reference + "/envelopes.csv";
  if (file.empty()) throw InputError("--envelopes: expected an envelope file, got an empty path");
  const bool installed = inside_installation(file, data);
  // The command that records into the file in use; never into an installation's data, where
  // the user records into a file of their own.
  const std::string record_command =
      request.record_command + (installed ? " --envelopes my_envelopes.csv" : request.envelopes ? " --envelopes " + file : "");
  const EnvelopeFileHint hint{installed ? file + " (the installation's; record your own runs into your own file with --envelopes)" : file,
                              record_command};
  if (request.record && installed)
    throw InputError("--envelopes " + file + ": the envelopes bundled with the installation are not recorded into; "
                     "expected --envelopes FILE, a file of your own (created by --record when it does not exist)");
  // A researcher's own envelope file starts empty: --record creates it.
  std::vector<Envelope> envelopes;
  if (!(request.record && !fs::exists(file))) {
    envelopes = read_envelopes(file, /*accept_old_format=*/request.record);
    check_envelope_metrics(file, envelopes);
  } else {
    output_folder("--envelopes", fs::absolute(file).parent_path().string());
  }
  if (request.record) {
    // Rows of the integrators not gated stay as they are. A row's run is its integrator's on any discretisation
    // (`NAME@penalty` is NAME's): gated, it is measured again, so its old row is not kept beside the new one.
    std::vector<Envelope> kept, recorded;
    for (auto& e : envelopes)
      (gated.find_integrator(integrator_of_label(e.integrator)) ? recorded : kept).push_back(std::move(e));
    for (const auto& c : cases) {
      RecordedEnvelopes r = record_envelopes(c, gated, recorded, request.accept_failures);
      recorded = std::move(r.rows);
      out.refused.insert(out.refused.end(), r.refused.begin(), r.refused.end());
    }
    if ((out.interrupted = interrupted())) return out;  // partial measurements are never recorded
    if (!out.refused.empty()) return out;
    recorded.insert(recorded.end(), kept.begin(), kept.end());
    std::stable_sort(recorded.begin(), recorded.end(), [](const Envelope& a, const Envelope& b) {
      return std::tie(a.case_name, a.integrator) < std::tie(b.case_name, b.integrator);
    });
    write_envelopes(file, recorded);
    out.recorded = true;
    for (const auto& e : recorded)
      if (e.bound_type == BoundType::Fails && gated.find_integrator(integrator_of_label(e.integrator)))
        ++out.expected_failures;
    return out;
  }
  for (const auto& c : cases)
    for (auto& g : check_gates(c, gated, envelopes, hint)) out.checks.push_back(std::move(g));
  // The orders, on one case per model: the first of its cases given whose model has no switching
  // functions (a smooth case: app/judging/order_gate.hpp), else the first of its cases given.
  std::vector<std::string> models;
  for (const auto& c : cases) {
    if (std::find(models.begin(), models.end(), c.model_name) != models.end()) continue;
    const Case* chosen = &c;
    for (const auto& other : cases)
      if (other.model_name == c.model_name && other.model->switching_count() == 0) {
        chosen = &other;
        break;
      }
    models.push_back(c.model_name);
    for (auto& g : check_orders(*chosen, gated)) out.checks.push_back(std::move(g));
  }
  out.interrupted = interrupted();
  return out;
}

}  // namespace tb
