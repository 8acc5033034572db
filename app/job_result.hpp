#pragma once
// A job's result as bytes: what a worker process sends to the one that writes the tables (MPI,
// app/jobs.hpp) and what the resume store keeps under the output folder. A result is a flat
// sequence of fields written and read back in the same order; numbers are exact (hexadecimal
// floating point), so a result read back equals the one computed, bit for bit, and tables
// written from it equal those of a run that never left the process.
//
// A study author makes a job with result_job(): the computation returns a value of a type that
// has write(ResultWriter&, const T&) and read(ResultReader&, T&) overloads (Measurement and
// SummaryRow have them here; a study adds its own beside its types), and the job's bytes are
// read into the slot of the study's results on the gathering process only.

#include <Eigen/Dense>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/runner.hpp"
#include "app/study.hpp"

namespace tb {

class ResultWriter {
 public:
  ResultWriter& operator<<(double x);
  ResultWriter& operator<<(long x);
  ResultWriter& operator<<(int x) { return *this << long(x); }
  ResultWriter& operator<<(bool x) { return *this << long(x ? 1 : 0); }
  ResultWriter& operator<<(const std::string& s);
  ResultWriter& operator<<(const char* s) { return *this << std::string(s); }
  ResultWriter& operator<<(const Eigen::VectorXd& v);
  ResultWriter& operator<<(const std::vector<std::string>& v);
  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

// Reads what a ResultWriter wrote; std::runtime_error on bytes that are not such a sequence.
class ResultReader {
 public:
  explicit ResultReader(const std::string& bytes) : in_(bytes) {}
  ResultReader& operator>>(double& x);
  ResultReader& operator>>(long& x);
  ResultReader& operator>>(int& x);
  ResultReader& operator>>(bool& x);
  ResultReader& operator>>(std::string& s);
  ResultReader& operator>>(Eigen::VectorXd& v);
  ResultReader& operator>>(std::vector<std::string>& v);
  // Throws unless every byte was read (a result of another shape).
  void expect_end() const;

 private:
  std::string token();
  const std::string& in_;
  size_t at_ = 0;
};

inline void write(ResultWriter& w, long x) { w << x; }
inline void read(ResultReader& r, long& x) { r >> x; }
inline void write(ResultWriter& w, double x) { w << x; }
inline void read(ResultReader& r, double& x) { r >> x; }
inline void write(ResultWriter& w, const std::string& s) { w << s; }
inline void read(ResultReader& r, std::string& s) { r >> s; }
inline void write(ResultWriter& w, bool x) { w << x; }
inline void read(ResultReader& r, bool& x) { r >> x; }
// A list of any serialisable type: its size, then each element.
template <class T>
void write(ResultWriter& w, const std::vector<T>& v) {
  w << long(v.size());
  for (const auto& x : v) write(w, x);
}
template <class T>
void read(ResultReader& r, std::vector<T>& v) {
  long n = 0;
  r >> n;
  if (n < 0) throw std::runtime_error("job result: negative list size");
  v.assign(size_t(n), T());
  for (auto& x : v) read(r, x);
}
void write(ResultWriter& w, const RunOutcome& o);
void read(ResultReader& r, RunOutcome& o);
void write(ResultWriter& w, const StepCounters& n);
void read(ResultReader& r, StepCounters& n);
void write(ResultWriter& w, const GrowthFit& g);
void read(ResultReader& r, GrowthFit& g);
void write(ResultWriter& w, const ConservationMetrics& m);
void read(ResultReader& r, ConservationMetrics& m);
void write(ResultWriter& w, const Measurement& m);
void read(ResultReader& r, Measurement& m);
void write(ResultWriter& w, const SummaryRow& row);
void read(ResultReader& r, SummaryRow& row);

// A job whose computation returns a T: run() computes and encodes it, apply() decodes it into
// `slot` (which must outlive the job list; it is written only by apply, on the gathering process).
template <class T>
StudyJob result_job(std::string label, double expected_cost, std::string inputs, std::function<T()> compute, T& slot) {
  StudyJob job;
  job.label = std::move(label);
  job.expected_cost = expected_cost;
  job.inputs = std::move(inputs);
  job.run = [compute = std::move(compute)] {
    ResultWriter w;
    write(w, compute());
    return w.bytes();
  };
  job.apply = [&slot](const std::string& bytes) {
    ResultReader r(bytes);
    read(r, slot);
    r.expect_end();
  };
  return job;
}

// Canonical text of what a case's runs are computed from, for StudyJob::inputs: its name, a hash of
// its file's bytes, and every integrator's effective settings (so --set overrides count).
std::string case_inputs(const Case& c);
// The same for one integrator of the case: the file's hash and that integrator's settings.
std::string run_inputs(const Case& c, const std::string& integrator);

}  // namespace tb
