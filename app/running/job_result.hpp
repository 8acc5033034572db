#pragma once
// A job's result as bytes: what a worker process sends to the one that writes the tables (MPI,
// app/jobs/jobs.hpp) and what the resume store keeps under the output folder. A result is a flat
// sequence of fields written and read back in the same order; numbers are exact (hexadecimal
// floating point), so a result read back equals the one computed, bit for bit, and tables
// written from it equal those of a run that never left the process.
//
// A study author makes a job with result_job(): the computation returns a value of a described
// record type (app/common/record.hpp; Measurement and SummaryRow are described here, a study describes
// its own beside its types), and the job's bytes are read into the slot of the study's results
// on the gathering process only.

#include <Eigen/Dense>
#include <array>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/common/record.hpp"
#include "app/input/run_records.hpp"
#include "app/input/study.hpp"

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
  size_t remaining() const { return in_.size() - at_; }

 private:
  std::string token();
  const std::string& in_;
  size_t at_ = 0;
};

// What a job result is made of: numbers, text, named enumerations (app/common/record.hpp; kept as their
// number), lists (their size, then each element), fixed-size arrays (each element) and described
// records (each field, in the order of their description). Writing and reading both follow the
// one description, so there is no per-type pair to keep in step.
template <class T>
void write(ResultWriter& w, const T& x);
template <class T>
void read(ResultReader& r, T& x);

namespace record_detail {
struct BytesOut {
  ResultWriter& w;
  template <class F>
  void operator()(std::string_view, const F& f, Csv = {}) {
    write(w, f);
  }
};
struct BytesIn {
  ResultReader& r;
  template <class F>
  void operator()(std::string_view, F& f, Csv = {}) {
    read(r, f);
  }
};
}  // namespace record_detail

template <class T>
void write(ResultWriter& w, const T& x) {
  if constexpr (Record<T>) {
    record_detail::BytesOut v{w};
    describe_const(v, x);
  } else if constexpr (NamedEnum<T>) {
    w << long(x);
  } else if constexpr (record_detail::is_vector<T>::value) {
    w << long(x.size());
    for (const auto& e : x) write(w, e);
  } else if constexpr (record_detail::is_array<T>::value) {
    for (const auto& e : x) write(w, e);
  } else {
    w << x;
  }
}

template <class T>
void read(ResultReader& r, T& x) {
  if constexpr (Record<T>) {
    record_detail::BytesIn v{r};
    describe(v, x);
  } else if constexpr (NamedEnum<T>) {
    long i = 0;
    r >> i;
    x = enum_from_index<T>(i);
  } else if constexpr (record_detail::is_vector<T>::value) {
    long n = 0;
    r >> n;
    // Every element takes at least one byte: a larger count is a foreign or torn result.
    if (n < 0 || size_t(n) > r.remaining()) throw std::runtime_error("job result: impossible list size " + std::to_string(n));
    x.assign(size_t(n), typename T::value_type());
    for (auto& e : x) read(r, e);
  } else if constexpr (record_detail::is_array<T>::value) {
    for (auto& e : x) read(r, e);
  } else {
    r >> x;
  }
}

// The shared result types, described once (field order = the stored byte order).
constexpr std::array<std::string_view, 5> enum_texts(RunOutcome::Kind) {
  return {"ok", "failed", "not_applicable", "interrupted", "unstable"};
}
template <class V>
void describe(V& v, RunOutcome& o) {
  v("kind", o.kind);
  v("reason", o.reason);
  v("diverged", o.diverged);
  v("t", o.t);
  v("step", o.step);
  v("h", o.h);
  v("adaptive", o.adaptive);
  v("rtol", o.rtol);
  v("note", o.note);
  v("accrued", o.accrued);
  v("momentum_drift", o.momentum_drift);
  v("episode", o.episode);
  v("episode_t", o.episode_t);
  v("manifold_drift", o.manifold_drift);
  v("manifold_t", o.manifold_t);
  v("manifold_rotations", o.manifold_rotations);
  v("energy_jump", o.energy_jump);
}
template <class V>
void describe(V& v, StepCounters& n) {
  v("steps", n.steps);
  v("rhs_evals", n.rhs_evals);
  v("newton_iters", n.newton_iters);
  v("error_test_failures", n.error_test_failures);
}
template <class V>
void describe(V& v, EnvelopePoint& p) {
  v("t", p.t);
  v("value", p.value);
}
template <class V>
void describe(V& v, GrowthPrediction& p) {
  v("law", p.law);
  v("because", p.because);
}
template <class V>
void describe(V& v, GrowthFit& g) {
  v("law", g.law);
  v("exponent", g.exponent);
  v("std_err", g.std_err);
  v("ci95_low", g.ci95_low);
  v("ci95_high", g.ci95_high);
  v("r2", g.r2);
  v("coefficient", g.coefficient);
  v("points", g.points);
  v("t_from", g.t_from);
  v("t_to", g.t_to);
  v("err_max", g.err_max);
  v("round_off_floor", g.round_off_floor);
  v("slowest_period", g.slowest_period);
  v("jump_from", g.jump_from);
  v("jump_to", g.jump_to);
  v("jump_ratio", g.jump_ratio);
  v("after_law", g.after_law);
  v("why", g.why);
  v("accelerating", g.accelerating);
  v("offset", g.offset);
  v("drift", g.drift);
  v("offset_drift_misfit", g.offset_drift_misfit);
  v("power_misfit", g.power_misfit);
  v("drift_ci95_half", g.drift_ci95_half);
  v("kinks", g.kinks);
  v("offset_drift_rejected", g.offset_drift_rejected);
  v("observation", g.observation);
  v("prediction", g.prediction);
  v("verdict", g.verdict);
  v("envelope", g.envelope);
}
// The metrics' stored fields come from the registry (core/metric_registry.hpp: every row with a
// field), so a metric declared there is stored and read back; a field declared in
// ConservationMetrics but in neither the registry nor this list would read 0 after a job's
// round trip (tests/test_metric_registry.cpp checks every row).
template <class V>
void describe(V& v, ConservationMetrics& m) {
  v("samples", m.samples);
  for (const MetricSpec& spec : metric_registry())
    if (spec.field) v(spec.name, m.*spec.field);
  v("kinetic_max", m.kinetic_max);
  v("energy_magnitude", m.energy_magnitude);
  v("momentum_magnitude", m.momentum_magnitude);
  v("linear_momentum_magnitude", m.linear_momentum_magnitude);
  v("external_work_max", m.external_work_max);
  v("energy_first", m.energy_first);
  v("energy_last", m.energy_last);
  v("external_work_last", m.external_work_last);
  v("energy_gain_max", m.energy_gain_max);
  v("energy_gain_t", m.energy_gain_t);
  v("constraint_err_t", m.constraint_err_t);
  v("orthogonality_err_t", m.orthogonality_err_t);
  v("invariant_err_max", m.invariant_err_max);
  v("invariant_magnitude", m.invariant_magnitude);
  v("energy_growth", m.energy_growth);
  v("momentum_growth", m.momentum_growth);
}
template <class V>
void describe(V& v, ViolableInvariants& x) {
  v("momentum", x.momentum);
  v("linear_momentum", x.linear_momentum);
  v("constraints", x.constraints);
  v("constraint_rates", x.constraint_rates);
  v("rotations", x.rotations);
  v("invariants", x.invariants);
}
template <class V>
void describe(V& v, Measurement& m) {
  v("outcome", m.outcome);
  v("counters", m.counters);
  v("metrics", m.metrics);
  v("window_metrics", m.window_metrics);
  v("runtime_s", m.runtime_s);
  v("runtime_spread", m.runtime_spread);
  v("timing_passes", m.timing_passes);
  v("t_final", m.t_final);
  v("final_physical", m.final_physical);
  v("extra_columns", m.extra_columns);
  v("host", m.host);
  v("violable", m.violable);
}
template <class V>
void describe(V& v, SummaryRow& row) {
  v("case", row.case_name);
  v("integrator", row.integrator);
  v("discretisation", row.discretisation);
  v("h", row.h);
  v("rtol", row.rtol);
  v("atol", row.atol);
  v("max_step", row.max_step);
  v("declares_max_step", row.declares_max_step);
  v("t_end", row.t_end);
  v("counters", row.counters);
  v("metrics", row.metrics);
  v("shared_t_end", row.shared_t_end);
  v("shared_metrics", row.shared_metrics);
  v("violable", row.violable);
  v("runtime_s", row.runtime_s);
  v("timing_passes", row.timing_passes);
  v("runtime_spread", row.runtime_spread);
  v("runtime_code", row.runtime_code);
  v("host", row.host);
  v("outcome", row.outcome);
}

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

// What a job's result is computed from, as typed records described once: a StudyJob's `inputs`
// is their record_text (every field by name and exact value), never a string put together by hand.

// One effective integrator setting (--set overrides included): a number in `value`, or a word
// or text in `word` (value 0 then), so that two runs differing only in a word differ in their
// fingerprint.
struct SettingValue {
  std::string key;
  double value = 0.0;
  std::string word;
};
template <class V>
void describe(V& v, SettingValue& x) {
  v("key", x.key);
  v("value", x.value);
  v("word", x.word);
}

// One integrator of a case: its step and settings, and where it comes from ("" for a built-in
// one; a plugin's "plugin NAME VERSION, file hash H").
struct IntegratorInputs {
  std::string integrator;
  double h = 0.0;
  std::vector<SettingValue> settings;
  std::string origin;
};
template <class V>
void describe(V& v, IntegratorInputs& x) {
  v("integrator", x.integrator);
  v("h", x.h);
  v("settings", x.settings);
  v("origin", x.origin);
}

// A case: its name, a hash of its file's bytes, a hash of its model inputs and the model's origin.
struct CaseIdentity {
  std::string name, file_hash, model, model_origin;
};
template <class V>
void describe(V& v, CaseIdentity& x) {
  v("case", x.name);
  v("file", x.file_hash);
  v("model", x.model);
  v("model_origin", x.model_origin);
}

// What a case's runs are computed from: the case and every integrator's effective settings.
struct CaseInputs {
  CaseIdentity identity;
  std::vector<IntegratorInputs> integrators;
};
template <class V>
void describe(V& v, CaseInputs& x) {
  v("case", x.identity);
  v("integrators", x.integrators);
}

// What one integrator's runs of a case are computed from, with the horizon (--full-horizon
// changes it without changing the file).
struct RunInputs {
  CaseIdentity identity;
  IntegratorInputs integrator;
  double t_end = 0.0;
};
template <class V>
void describe(V& v, RunInputs& x) {
  v("case", x.identity);
  v("run", x.integrator);
  v("t_end", x.t_end);
}

// A study job's own parameter beside the run it measures (a step, a tolerance, a horizon, a
// setting's value, a discretisation), by name and exact text.
struct JobParameter {
  std::string name, value;
};
template <class V>
void describe(V& v, JobParameter& x) {
  v("name", x.name);
  v("value", x.value);
}

// A study job: the run (or case) it is computed from and its own parameters.
struct JobInputs {
  std::string of;  // record_text of RunInputs or CaseInputs
  std::vector<JobParameter> parameters;
};
template <class V>
void describe(V& v, JobInputs& x) {
  v("of", x.of);
  v("parameters", x.parameters);
}

CaseInputs case_inputs_of(const Case& c);
// A case's identity: its name, its file's hash, its model inputs' hash and the model's origin.
CaseIdentity identity_of(const Case& c);
// One integrator's step and effective settings, sorted by key, with its origin.
IntegratorInputs integrator_inputs(const Case& c, const std::string& integrator, const IntegratorSettings& s);
RunInputs run_inputs_of(const Case& c, const std::string& integrator);
// record_text of the two: StudyJob::inputs of a job computed from a case, or from one run.
std::string case_inputs(const Case& c);
std::string run_inputs(const Case& c, const std::string& integrator);
// A job's inputs: the run's (or case's) text and the job's own parameters.
std::string job_inputs(std::string of, std::vector<JobParameter> parameters);
// The exact text of a number, for a JobParameter.
inline std::string exact(double x) { return format_g(x, 17); }

}  // namespace tb
