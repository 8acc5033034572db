#include "app/common/figure_kit.hpp"
#include "app/common/run_label_parts.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <tuple>

#include "core/format.hpp"

namespace tb::figure_kit {

Family family_of(const MethodTraits& t) {
  if (t.symplectic) return Family::Symplectic;
  return t.implicit ? Family::Implicit : Family::Explicit;
}

const char* family_title(Family f) {
  switch (f) {
    case Family::Symplectic: return "symplectic";
    case Family::Explicit: return "explicit, not symplectic";
    case Family::Implicit: return "implicit, not symplectic";
  }
  return "";
}

Styles::Styles(const std::vector<IntegratorInfo>& integrators) {
  std::map<Family, int> next;
  for (const auto& info : integrators) {
    Style s;
    s.family = family_of(info.traits);
    s.rank = next[s.family]++;
    s.colour = kColours[s.rank % kMaxSeriesPerPanel];
    s.line = kLines[s.rank % kMaxSeriesPerPanel];
    by_name_[info.name] = s;
  }
}

const Style* Styles::of(const std::string& label) const {
  const auto it = by_name_.find(integrator_of_label(label));
  return it == by_name_.end() ? nullptr : &it->second;
}

Series table_series(const std::string& label, const Style& style, const std::string& data, const std::string& filter,
                    const std::string& x, const std::string& y) {
  Series s;
  s.label = label;
  s.colour = style.colour;
  s.line = style.line;
  s.marker = "o";
  s.kind = "line+markers";
  s.data = data;
  s.filter = filter;
  s.x = x;
  s.y = y;
  return s;
}

std::vector<std::vector<std::size_t>> group(const std::vector<const Style*>& styles, const std::vector<std::string>& discs,
                                            std::vector<std::string>& titles) {
  std::vector<std::string> disc_order;
  for (const auto& d : discs)
    if (std::find(disc_order.begin(), disc_order.end(), d) == disc_order.end()) disc_order.push_back(d);
  std::map<std::tuple<int, std::size_t, int>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < styles.size(); ++i) {
    const std::size_t d = std::find(disc_order.begin(), disc_order.end(), discs[i]) - disc_order.begin();
    groups[{static_cast<int>(styles[i]->family), d, styles[i]->rank / kMaxSeriesPerPanel}].push_back(i);
  }
  std::map<std::pair<int, std::size_t>, int> chunks;
  for (const auto& [key, _] : groups) ++chunks[{std::get<0>(key), std::get<1>(key)}];
  std::vector<std::vector<std::size_t>> out;
  titles.clear();
  for (const auto& [key, items] : groups) {
    const auto [family, d, chunk] = key;
    std::string title = family_title(static_cast<Family>(family));
    if (disc_order.size() > 1) title += ", " + (disc_order[d].empty() ? std::string("default") : disc_order[d]) + " discretisation";
    if (chunks[{family, d}] > 1) title += " (" + std::to_string(chunk + 1) + ")";
    titles.push_back(title);
    out.push_back(items);
  }
  return out;
}

std::vector<Row> rows_where(const std::vector<Row>& rows, const std::string& column, const std::string& value) {
  std::vector<Row> out;
  for (const auto& r : rows)
    if (r.count(column) && r.at(column) == value) out.push_back(r);
  return out;
}

std::string cell(const Row& row, const std::string& column) {
  const auto it = row.find(column);
  return it == row.end() ? "" : it->second;
}

double to_double(const std::string& s) {
  if (s.empty()) return kNaN;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  return end == s.c_str() ? kNaN : v;
}

std::string number_or_na(double x, int digits) { return std::isfinite(x) ? format_g(x, digits) : "n/a"; }

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::string safe_name(std::string s) {
  for (auto& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') c = '_';
  return s;
}

}  // namespace tb::figure_kit
