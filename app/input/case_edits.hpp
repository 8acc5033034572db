#pragma once
// A case file changed from Python (tetherbench.Case: Case.t_end = 10.0, Case.parameters["cable_length"]
// = 2.0, Case.settings[NAME][KEY] = VALUE; issue 46 item 2): the file's TOML with the changed
// keys set in it, read and checked exactly as the command line reads a case file, so that every
// value has the checks and the messages of the file's own keys.

#include <string>
#include <vector>

#include "app/input/case.hpp"
#include "app/input/limits.hpp"

namespace tb {

struct CaseEdit {
  std::string table;  // "case", "model", "model.body", "initial", "integrators.NAME"
  std::string key;    // "t_end", "cable_length", "rtol"
  std::string value;  // TOML text of the value: 2.0, "cube", [1.0, 0.0, 0.0], true
  std::string words;  // the change as the user made it, for messages: "Case.t_end = -1.0"
};

// The case file at `path` with the edits applied in order, as TOML text (its comments dropped).
// InputError naming the edit's words when its table is not one a case file holds keys in ([case],
// [model] and [initial] and the tables inside them, [integrators.NAME]) or its value is not one
// line of TOML.
std::string edited_case_text(const std::string& path, const std::vector<CaseEdit>& edits);

// That text read and checked as `load_cases` checks a case file (every key, the run limits, the
// settings acting on the model); `described` names it in the messages ("cases/A.toml as changed
// from Python (Case.t_end = -1.0)").
Case load_edited_case(const std::string& text, const std::string& described, const Catalogue& catalogue,
                      const RunLimits& limits);

}  // namespace tb
