#pragma once
// Every study of the suite, sorted by name; `tetherbench report` runs them all. The executable
// and the tests hand this list to core (app/input/catalogue.hpp).
#include <vector>

#include "app/input/study.hpp"

namespace tb {
std::vector<StudyInfo> study_registry();
}
