#include "app/input/claim_series.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace tb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string cell;
  std::istringstream in(text);
  while (std::getline(in, cell, sep)) out.push_back(cell);
  if (!text.empty() && text.back() == sep) out.emplace_back();
  return out;
}

bool glob_match(const std::string& pattern, const std::string& name) {
  const size_t star = pattern.find('*');
  if (star == std::string::npos) return pattern == name;
  const std::string head = pattern.substr(0, star), tail = pattern.substr(star + 1);
  return name.size() >= head.size() + tail.size() && name.compare(0, head.size(), head) == 0 &&
         name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
}

const std::vector<std::string>& operations() {
  static const std::vector<std::string> ops = {"balance", "value", "neg", "dev", "sub", "norm", "maxdev"};
  return ops;
}

}  // namespace

const std::vector<double>* TimeSeriesTable::column(const std::string& name) const {
  for (size_t j = 0; j < names.size(); ++j)
    if (names[j] == name) return &columns[j];
  return nullptr;
}

TimeSeriesTable read_time_series(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read (the run's time series: was the run written here?)");
  TimeSeriesTable table;
  table.path = path;
  std::string line;
  while (std::getline(in, line) && (line.empty() || line[0] == '#')) {
  }
  table.names = split(line, ',');
  if (table.names.empty() || table.names[0] != "t") throw std::runtime_error(path + ": no header starting with 't'");
  table.columns.assign(table.names.size(), {});
  long number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    const char* p = line.c_str();
    for (size_t j = 0; j < table.names.size(); ++j) {
      // An empty cell is a metric the run's form cannot violate (n/a (not integrated)): NaN.
      if (*p == ',' || *p == '\0' || *p == '\r') {
        table.columns[j].push_back(kNaN);
        if (*p == ',') ++p;
        continue;
      }
      char* end = nullptr;
      const double x = std::strtod(p, &end);
      if (end == p) throw std::runtime_error(path + ": line " + std::to_string(number) + ": column '" + table.names[j] + "' is not a number");
      table.columns[j].push_back(x);
      p = end;
      if (*p == ',') ++p;
    }
  }
  return table;
}

bool valid_series_spec(const std::string& spec, std::string& why) {
  const size_t colon = spec.find(':');
  const std::string op = spec.substr(0, colon);
  if (std::find(operations().begin(), operations().end(), op) == operations().end()) {
    why = "an operation of balance, value:, neg:, dev:, sub:, norm:, maxdev: (app/input/claim_series.hpp)";
    return false;
  }
  const std::string args = colon == std::string::npos ? "" : spec.substr(colon + 1);
  const size_t n = args.empty() ? 0 : split(args, ',').size();
  const bool ok = op == "balance" ? colon == std::string::npos
                  : op == "sub"   ? n == 2
                  : op == "norm"  ? n >= 1
                                  : n == 1;
  if (!ok) why = "'" + op + "' with " + (op == "balance" ? std::string("no columns") : op == "sub" ? "two columns" : "its column(s)");
  return ok;
}

Series derive_series(const TimeSeriesTable& table, const std::string& spec) {
  std::string why;
  if (!valid_series_spec(spec, why)) throw std::runtime_error("series '" + spec + "': expected " + why);
  const size_t colon = spec.find(':');
  const std::string op = spec.substr(0, colon);
  const std::vector<std::string> args = colon == std::string::npos ? std::vector<std::string>{} : split(spec.substr(colon + 1), ',');
  auto need = [&](const std::string& name) -> const std::vector<double>& {
    const std::vector<double>* c = table.column(name);
    if (!c) throw std::runtime_error(table.path + ": no column '" + name + "' (series '" + spec + "')");
    return *c;
  };
  Series s;
  s.spec = spec;
  s.t = *table.column("t");
  const size_t n = s.t.size();
  s.v.assign(n, 0.0);
  double at_start = 0.0;
  auto start_of = [&](const std::vector<double>& c) { at_start = std::max(at_start, c.empty() ? 0.0 : std::abs(c[0])); };
  if (op == "balance") {
    const auto &E = need("energy"), &W = need("external_work"), &T = need("kinetic");
    for (size_t k = 0; k < n; ++k) {
      s.v[k] = std::abs((E[k] - E[0]) - (W[k] - W[0]));
      s.scale = std::max({s.scale, std::abs(T[k]), std::abs(E[k] - T[k])});
    }
    s.at_start = std::abs(E[0]) + std::abs(T[0]);
    s.words = "|E - E(0) - W|";
    return s;
  }
  if (op == "maxdev") {
    bool any = false;
    for (size_t j = 0; j < table.names.size(); ++j)
      if (glob_match(args[0], table.names[j])) {
        any = true;
        const auto& c = table.columns[j];
        start_of(c);
        for (size_t k = 0; k < n; ++k) s.v[k] = std::max(s.v[k], std::abs(c[k] - c[0]));
      }
    if (!any) throw std::runtime_error(table.path + ": no column matches '" + args[0] + "' (series '" + spec + "')");
    s.words = "max |c - c(0)| over the columns " + args[0];
  } else if (op == "norm") {
    for (const auto& name : args) {
      const auto& c = need(name);
      start_of(c);
      for (size_t k = 0; k < n; ++k) s.v[k] += c[k] * c[k];
    }
    for (auto& x : s.v) x = std::sqrt(x);
    s.words = "|(" + spec.substr(colon + 1) + ")|";
  } else if (op == "sub") {
    const auto &a = need(args[0]), &b = need(args[1]);
    start_of(a), start_of(b);
    for (size_t k = 0; k < n; ++k) s.v[k] = a[k] - b[k];
    s.words = args[0] + " - " + args[1];
  } else {
    const auto& c = need(args[0]);
    start_of(c);
    for (size_t k = 0; k < n; ++k) s.v[k] = op == "value" ? c[k] : op == "neg" ? -c[k] : std::abs(c[k] - c[0]);
    s.words = op == "value" ? args[0] : op == "neg" ? "-" + args[0] : "|" + args[0] + " - " + args[0] + "(0)|";
  }
  s.scale = std::max(1.0, at_start);
  s.at_start = at_start;
  return s;
}

double max_abs_over(const Series& s, double from, double to) {
  double m = 0.0;
  for (size_t k = 0; k < s.t.size(); ++k)
    if (s.t[k] >= from && s.t[k] <= to) m = std::max(m, std::abs(s.v[k]));
  return m;
}

Onset first_exceeding(const Series& s, double start, double level) {
  Onset o;
  for (size_t k = 0; k < s.t.size(); ++k)
    if (s.t[k] >= start && !(std::abs(s.v[k]) <= level)) {
      o.found = true;
      o.t = s.t[k];
      o.value = std::abs(s.v[k]);
      return o;
    }
  return o;
}

Peak peak_near(const Series& s, double t, double f) {
  Peak p;
  double best = -std::numeric_limits<double>::infinity();
  for (size_t k = 0; k < s.t.size(); ++k)
    if (s.t[k] >= t / (f * f) && s.t[k] <= t * f * f && s.v[k] > best) best = s.v[k], p.t = s.t[k];
  if (!std::isfinite(best)) return p;
  p.value = best;
  p.interior = p.t >= t / f && p.t <= t * f;
  return p;
}

Period dominant_period(const Series& s, double from, double to, double p_low, double p_high) {
  Period out;
  std::vector<double> t, v;
  for (size_t k = 0; k < s.t.size(); ++k)
    if (s.t[k] >= from && s.t[k] <= to) t.push_back(s.t[k]), v.push_back(s.v[k]);
  if (t.size() < 8) return out;
  const double dt = (t.back() - t.front()) / double(t.size() - 1);
  // Remove the slow trend: a centred moving average over 2 p_high (longer than any period
  // sought), kept only where its window is whole (a truncated window at the ends leaves the trend in).
  const long w = std::max(1L, long(std::lround(p_high / dt)));
  if (long(v.size()) <= 2 * w + 8) return out;
  std::vector<double> prefix(v.size() + 1, 0.0);
  for (size_t k = 0; k < v.size(); ++k) prefix[k + 1] = prefix[k] + v[k];
  std::vector<double> x;
  for (long k = w; k + w < long(v.size()); ++k)
    x.push_back(v[size_t(k)] - (prefix[size_t(k + w) + 1] - prefix[size_t(k - w)]) / double(2 * w + 1));
  const long lo = std::max(1L, long(std::floor(p_low / dt))), hi = long(std::ceil(p_high / dt));
  if (hi >= long(x.size()) / 2) return out;
  // An oscillation below a millionth of the quantity's size is the trend's round-off, not one.
  double var = 0.0, size = 0.0;
  for (double y : x) var += y * y;
  for (double y : v) size = std::max(size, std::abs(y));
  if (!(std::sqrt(var / double(x.size())) > 1e-6 * size)) return out;
  double best = -2.0;
  for (long lag = lo; lag <= hi; ++lag) {
    double c = 0.0, a2 = 0.0, b2 = 0.0;
    for (size_t k = 0; k + size_t(lag) < x.size(); ++k) {
      c += x[k] * x[k + size_t(lag)];
      a2 += x[k] * x[k];
      b2 += x[k + size_t(lag)] * x[k + size_t(lag)];
    }
    const double r = c / std::sqrt(a2 * b2);
    if (r > best) best = r, out.period = double(lag) * dt;
  }
  out.correlation = best;
  out.found = best > -2.0;
  return out;
}

double exponential_rate(const Series& s, double lo, double hi) {
  // On the running maximum of |v|: an oscillating quantity growing exponentially has an
  // exponential envelope, while its own samples dip through every value below it.
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, running = 0.0;
  long n = 0;
  for (size_t k = 0; k < s.t.size(); ++k) {
    running = std::max(running, std::abs(s.v[k]));
    if (!(running >= lo && running <= hi)) continue;
    const double y = std::log(running);
    sx += s.t[k], sy += y, sxx += s.t[k] * s.t[k], sxy += s.t[k] * y, ++n;
  }
  if (n < 10) return kNaN;
  const double d = double(n) * sxx - sx * sx;
  return d > 0.0 ? (double(n) * sxy - sx * sy) / d : kNaN;
}

double value_near(const Series& s, double t) {
  if (s.empty()) return kNaN;
  const auto it = std::lower_bound(s.t.begin(), s.t.end(), t);
  size_t k = size_t(it - s.t.begin());
  if (k == s.t.size()) k = s.t.size() - 1;
  else if (k > 0 && t - s.t[k - 1] < s.t[k] - t) --k;
  return s.v[k];
}

double max_difference(const Series& a, const Series& b, double from, double to) {
  double m = 0.0;
  for (size_t k = 0; k < a.t.size(); ++k)
    if (a.t[k] >= from && a.t[k] <= to && a.t[k] <= b.t.back()) m = std::max(m, std::abs(a.v[k] - value_near(b, a.t[k])));
  return m;
}

double first_parting(const Series& a, const Series& b, double level) {
  for (size_t k = 0; k < a.t.size() && a.t[k] <= b.t.back(); ++k)
    if (std::abs(a.v[k] - value_near(b, a.t[k])) > level) return a.t[k];
  return kNaN;
}

}  // namespace tb
