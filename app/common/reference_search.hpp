#pragma once
// Where the cases' reference solutions are looked for: the user's folders (`--reference-dir DIR`,
// repeatable, in the order given), then the bundled reference/ folder. Each case's references
// come from the first folder that has them (a folder DIR/<case>/), so a report may mix a
// researcher's own case (its references in their folder) with a bundled one. The message for a
// missing or stale reference names the file actually used and every folder searched, and its
// command (`tetherbench reference CASE --out DIR`) always writes into a folder of the user's:
// never into an installation's share/tetherbench/reference.

#include <map>
#include <string>
#include <vector>

namespace tb {

struct Case;
struct Catalogue;
struct DataPaths;

struct ReferenceSearch {
  std::vector<std::string> user;  // --reference-dir, in the order given
  std::string bundled;            // the data folder's reference/ ("" none)
  // Whether the bundled folder belongs to a source checkout (a contributor's: `tetherbench
  // reference` writes the bundled cases' references there and they are committed) rather than
  // to an installation or a copy of one, which a hint must never write into.
  bool bundled_in_checkout = false;
  // The plugin file that adds each model (a hint's command must load it to build the case).
  std::map<std::string, std::string> model_plugins;

  // Only `dir` (a caller that knows its one folder, e.g. a test): hints write there.
  static ReferenceSearch only(const std::string& dir);

  // user..., then bundled.
  std::vector<std::string> folders() const;
  // The folder case c's references come from: the first holding a folder <case name>/; "" when
  // none does.
  std::string folder_for(const Case& c) const;
  // "searched A, B, then the bundled C" for messages.
  std::string searched() const;
  // The command that (re)makes case c's references, in a folder of the user's:
  // " (make it with `tetherbench [--plugin P] reference FILE --out DIR`[, then give --reference-dir DIR])".
  std::string remake_hint(const Case& c) const;
};

// The search of `--reference-dir DIR`... (InputError for a folder given twice or missing), then the
// data folder's bundled reference/, with the plugins of the catalogue that add models named for
// the hints: what the commands (and tetherbench.study in Python) look in.
ReferenceSearch reference_search(const std::vector<std::string>& dirs, const DataPaths& data, const Catalogue& catalogue);

}  // namespace tb
