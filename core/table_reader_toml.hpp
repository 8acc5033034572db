// TableReader's TOML side, for the sources that parse, vary or fingerprint a case file's tables
// (app/input/case.cpp, core/model_variant.cpp, the studies that re-read a case): the toml::value a
// reader holds, and a reader made from one. Everything else reads through core/table_reader.hpp,
// which names no toml11 type (it reaches every model, integrator and plugin; issue 43).
#pragma once

#include <toml.hpp>

#include <memory>
#include <string>

#include "core/table_reader.hpp"

namespace tb {

struct TableReader::Table {
  toml::value value;
};

// A reader of `table` (which must be a TOML table) as [dotted_prefix] of `file`.
TableReader table_reader_of(std::string file, std::string dotted_prefix, toml::value table);

// The whole table a reader holds, as read.
inline const toml::value& toml_table(const TableReader& reader) { return reader.contents().value; }

}  // namespace tb
