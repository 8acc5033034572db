#pragma once
// A run's label is its integrator's name, with "@discretisation" when it runs a discretisation other
// than the model's default (RunKey::label, app/input/run_records.hpp): the integrator of a label, read
// back wherever a table, an envelope or a figure names a run.
#include <string>

namespace tb {

inline std::string integrator_of_label(const std::string& label) { return label.substr(0, label.find('@')); }

}  // namespace tb
