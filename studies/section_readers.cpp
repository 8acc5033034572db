#include "studies/section_readers.hpp"

#include "app/input/case.hpp"
#include "core/format.hpp"
#include "core/model_variant.hpp"
#include "core/table_reader_toml.hpp"

namespace tb {

const IntegratorInfo& read_integrator(TableReader& table, const std::string& key, const SectionInputs& in) {
  return *in.catalogue.find_integrator(table.one_of(key, in.catalogue.integrator_names()));
}

void refuse_unless_it_runs_the_case(TableReader& table, const std::string& key, const SectionInputs& in,
                                    const IntegratorInfo& info) {
  std::string why_not;
  if (!in.c.model->offers(info.consumes, in.c.model->default_discretisation(), why_not))
    table.fail(key, "an integrator that runs model " + in.c.model_name, "'" + info.name + "' (" + why_not + ")");
}

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
