#include "studies/model_variants.hpp"

#include "app/input/case.hpp"
#include "core/format.hpp"
#include "core/model_variant.hpp"
#include "core/table_reader_toml.hpp"

namespace tb {

std::vector<std::shared_ptr<const Model>> model_variants(TableReader& table, const SectionInputs& in,
                                                         const std::string& key, const std::vector<double>& values) {
  std::vector<std::shared_ptr<const Model>> out;
  for (double v : values) {
    try {
      out.push_back(build_model_variant(*in.catalogue.find_model(in.c.model_name), in.c.file, toml_table(in.model),
                                        toml_table(in.initial), key, v));
    } catch (const InputError& e) {
      table.fail("values", "values the model accepts for " + key, format_g(v) + " (" + e.what() + ")");
    }
  }
  return out;
}

}  // namespace tb
