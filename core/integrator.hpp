#pragma once
// The integrator interface (after Drake's IntegratorBase): a TimeStepper advances one
// formulation's state step by step; a failed step leaves time() and state() as they were.
// An integrator is described by an IntegratorInfo: the equation type it consumes (the type its
// factory takes: consuming() below), its order,
// the settings it reads (declared once, here, with meaning, default and range: case files,
// --set, `tetherbench list` and the settings table in cases/README.md all come from that
// declaration) and a factory. Core never names an integrator: the executable and the tests
// hand core the list (app/input/catalogue.hpp).

#include <Eigen/Dense>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/closed_link.hpp"
#include "core/formulation.hpp"

namespace tb {

// One setting an integrator reads from its [integrators.NAME] table or `--set NAME.KEY=VALUE`.
// A setting is a number (the default kind; `integer` settings take whole numbers only), a word
// of a declared list (an enum: a scheme's name, written `scheme = "suzuki"`), or a free text (a
// tableau's or a file's name), each read and fingerprinted by the same code: case files, --set,
// `tetherbench list`, the settings table and the stored results' fingerprints.
struct SettingSpec {
  std::string name;     // the key
  std::string meaning;  // one line, with the unit
  double default_value = 0.0;
  double lower = 0.0;   // valid range: lower <(=) value <= upper
  bool lower_inclusive = false;
  double upper = std::numeric_limits<double>::infinity();
  bool integer = false;

  // What the value is. Words and texts are TOML strings in case files; on --set the quotes may
  // be left out (`--set NAME.scheme=suzuki`).
  enum class Type { Number, Word, Text };
  Type type = Type::Number;
  // (Initialised here so that the brace-initialised number settings of existing integrators
  // and plugins need not spell them: -Wmissing-field-initializers is quiet about such members.)
  std::vector<std::string> words = {};  // Word: the allowed values, in the order `list` prints them
  std::string default_text = {};        // Word, Text: the default
  // Word settings that replaced an integer code: former_codes[i] is the word the number i
  // stood for. The number is still refused (a case file that meant 1 must say which scheme it
  // means), but the message names the word it stood for.
  std::vector<std::string> former_codes = {};

  bool is_number() const { return type == Type::Number; }
  // "a finite number > 0", "an integer >= 1", "a finite number in [0, 1]", "one of the words
  // "suzuki", "yoshida"", "a non-empty text": the expectation in messages and docs.
  std::string expectation() const;
  bool accepts(double value) const;              // a Number setting's value; false for the others
  bool accepts(const std::string& value) const;  // a Word or Text setting's value; false for a Number
};

// Common declarations, so that the same setting means the same thing in every integrator.
SettingSpec positive_setting(std::string name, std::string meaning, double default_value);
SettingSpec non_negative_setting(std::string name, std::string meaning, double default_value);
SettingSpec positive_integer_setting(std::string name, std::string meaning, int default_value);
// An on/off choice: the integer 0 or 1.
SettingSpec switch_setting(std::string name, std::string meaning, int default_value);
// One word of `words` (an enum), `default_word` among them.
SettingSpec word_setting(std::string name, std::string meaning, std::vector<std::string> words, std::string default_word);
// Any non-empty text on one line (a tableau's name, ...): what it must name is the integrator's
// to check, through IntegratorInfo::conflict (exit status 2 like any bad value).
SettingSpec text_setting(std::string name, std::string meaning, std::string default_text);
// The two settings of a Newton iteration inside a step: `newton_tol` (its stopping test, which
// each scheme states in `tol_meaning`, with its default) and `max_newton_iters` (iterations
// before the step is declared failed, 25 unless said otherwise).
std::vector<SettingSpec> newton_settings(std::string tol_meaning, double tol_default, int max_iters_default = 25);

// The error control of an adaptive method: relative and absolute tolerance, the pair every
// adaptive integrator declares (the catalogue checks it) and the suite sets for reference
// solutions and tolerance sweeps. Declared by error_tolerance_settings(), read and written as
// one typed value through IntegratorSettings::tolerances(): no caller spells the keys.
struct ErrorTolerances {
  double rtol = 0.0;
  double atol = 0.0;
};
// The settings `rtol` and `atol`, with the meaning each method's error control gives them.
std::vector<SettingSpec> error_tolerance_settings(std::string rtol_meaning, double rtol_default, std::string atol_meaning,
                                                  double atol_default);
// MATLAB's MaxStep for an explicit adaptive method (odeset, "MaxStep"): the step controller never
// proposes a step above it, whatever the error estimate allows; 0 (the default) leaves the step
// free. Seed 003 §5.2 runs its ODE45 with "the step-size of 0.001 s" for both solvers, i.e.
// MaxStep = 1e-3 (cases/README.md, the `_ode45` cases). Read with IntegratorSettings::max_step().
inline constexpr const char* kMaxStepKey = "max_step";
SettingSpec max_step_setting();
// Event location (issue 47): where the model declares switching functions (core/switching.hpp,
// a tension-only cable's element stretches), an adaptive method that can locate their zeros
// stops its step at the first one and restarts there, so that no step (and no error estimate)
// straddles the kink; 0 (the default) steps through it like a fixed-step method. Idle on a model
// without switching functions. Read with IntegratorSettings::locate_events().
inline constexpr const char* kLocateEventsKey = "locate_events";
SettingSpec locate_events_setting();
// IntegratorInfo::idle_setting for it: why `locate_events` has nothing to act on in `form` (the
// model declares no switching functions), "" where it acts or for any other key.
std::string idle_locate_events(const std::string& key, const Formulation& form);
class IntegratorSettings;
// Whether a stepper that declares locate_events_setting() locates the form's switches: where the
// setting asks and the model has switching functions, and always where its motion jumps at them
// (Formulation::has_impacts: a step through an impact would integrate another system).
bool locates_events(const IntegratorSettings& s, const Formulation& form);

// Settings of one run: the step h (from the case, or --h) and one value per declared setting.
class IntegratorSettings {
 public:
  double h = 0.0;  // fixed step, or initial step of an adaptive method (s)

  // The value of a declared Number setting; reading an undeclared one (or a Word/Text one) is
  // a programming error (std::logic_error naming the key), so a stepper cannot read what users
  // cannot set.
  double get(const std::string& key) const;
  int get_int(const std::string& key) const { return static_cast<int>(get(key)); }
  // Whether a Number setting `key` is declared (Word and Text settings: declares_word).
  bool declares(const std::string& key) const { return values_.count(key) > 0; }
  // Sets a declared Number setting (std::logic_error for an undeclared key).
  void set(const std::string& key, double value);
  const std::map<std::string, double>& values() const { return values_; }
  // The value of a declared Word or Text setting (std::logic_error otherwise), and its setter.
  const std::string& word(const std::string& key) const;
  bool declares_word(const std::string& key) const { return words_.count(key) > 0; }
  void set_word(const std::string& key, const std::string& value);
  const std::map<std::string, std::string>& words() const { return words_; }
  // The value of any declared setting as messages print it (a number to 6 digits, or the text).
  std::string shown(const std::string& key) const;
  // The error tolerances of an adaptive method (std::logic_error if it declares none).
  bool declares_tolerances() const;
  ErrorTolerances tolerances() const;
  void set_tolerances(const ErrorTolerances& tolerances);
  // The step cap of an adaptive method that declares max_step_setting(): 0 means none.
  double max_step() const { return get(kMaxStepKey); }
  // Whether an adaptive method that declares locate_events_setting() locates switching events.
  bool locate_events() const { return declares(kLocateEventsKey) && get_int(kLocateEventsKey) == 1; }

  // Every declared setting at its default.
  static IntegratorSettings defaults(const std::vector<SettingSpec>& specs, double h);

 private:
  std::map<std::string, double> values_;
  std::map<std::string, std::string> words_;  // Word and Text settings
};

struct StepCounters {
  long steps = 0;         // accepted steps
  long rhs_evals = 0;     // evaluations of f (ODE) or of the residual G (implicit steps)
  long newton_iters = 0;  // Newton iterations over all steps
  long error_test_failures = 0;  // adaptive methods: steps rejected by the local error test
};

// Why a step failed. Diverged (the state or the residual became non-finite, or the step found
// that it has left its method's stability region, as a constrained Stoermer-Verlet step whose
// free flight lands far off the constraints) is a stability result of the method at this step; the tables show it as
// "diverged at h = ...". SolverFailed: no solution of the step's equations found, the solver's limit.
struct StepFailure {
  enum class Kind { SolverFailed, Diverged };
  Kind kind = Kind::SolverFailed;
  std::string reason;
};

// An impact a time-stepping scheme applied inside its own steps (issue 48): where a scheme resolves a
// unilateral link's closing itself, with Newton's law, the observer sees only the states it samples
// and cannot tell when the scheme put the impulse, how many a step took, or where the scheme held a
// rebounding link instead of letting it fly. Schemes record them here; the snap study prints them.
struct AppliedImpact {
  enum class Kind {
    AtStepEnd,  // an impulse at the step's end (a time-stepping scheme that does not locate the collision)
    AtStepMidpoint,  // an impulse problem taken at the step's midpoint configuration (Moreau-Jean): the
                     // scheme acts there, so the time it stands for is t_k + h/2, not the step's end
    Located,    // an impulse at a collision time the scheme solved inside the step (to its position tolerance)
    Absorbed,   // a link that rebounded (e > 0) and that the rest of the step held at its length with a
                // tension: its flight back and its next closing were shorter than the step, taken as one plastic hold
  };
  double t = 0.0;  // when (s): the step's end or midpoint, the solved collision time, or the rebound's
  Kind kind = Kind::AtStepEnd;
  int links = 1;   // the one-sided links that took an impulse there together
  long step = 0;   // the accepted step that applied it, numbered from 1
  // Which links closed there and how fast (empty where the scheme does not say: an Absorbed entry, or a
  // scheme that records only the count), in the jump log's numbering (core/closed_link.hpp).
  std::vector<ClosedLink> closed = {};
};

class TimeStepper {
 public:
  virtual ~TimeStepper() = default;
  double time() const { return t_; }
  const Eigen::VectorXd& state() const { return y_; }
  const StepCounters& counters() const { return counters_; }

  // Takes one step, never past t_stop. On failure returns false with the reason in `failure`
  // and leaves time() and state() unchanged.
  virtual bool step(double t_stop, StepFailure& failure) = 0;

  // Adaptive methods interpolate with their own dense output within the last accepted step;
  // fixed-step methods are only observed at their step points.
  virtual bool has_dense_output() const { return false; }
  virtual void dense_state(double /*t*/, Eigen::VectorXd& y) const { y = y_; }

  // The impacts the scheme applied inside its accepted steps, in time order (empty for a scheme
  // that applies none, or whose form applies them at located events); the first kMaxRecordedImpacts,
  // and how many more there were.
  static constexpr size_t kMaxRecordedImpacts = 100000;
  const std::vector<AppliedImpact>& applied_impacts() const { return impacts_; }
  long impacts_not_recorded() const { return impacts_not_recorded_; }

 protected:
  TimeStepper(double t0, Eigen::VectorXd y0) : t_(t0), y_(std::move(y0)) {}
  // For a scheme, once its step is accepted: the step's impacts, kept in order up to the cap.
  void record_impacts(const std::vector<AppliedImpact>& step_impacts) {
    for (const AppliedImpact& i : step_impacts) {
      if (impacts_.size() < kMaxRecordedImpacts) impacts_.push_back(i);
      else ++impacts_not_recorded_;
    }
  }
  // A fixed-step scheme derives from FixedStepStepper (core/fixed_step.hpp), which owns t0, h,
  // the landing on t0 + n h and on t_stop, and this contract; an adaptive one implements step().
  double t_;
  Eigen::VectorXd y_;
  StepCounters counters_;

 private:
  std::vector<AppliedImpact> impacts_;
  long impacts_not_recorded_ = 0;
};

// What theory says of a method, declared by the method (its defaults' settings) and used by the
// report to judge what it measures: a verdict that contradicts the declared theory is printed
// as "investigate", never as a finding (core/growth.hpp).
struct MethodTraits {
  bool implicit = false;
  bool symmetric = false;
  // Symplectic (a variational or symplectic-partitioned scheme): backward error analysis gives a
  // modified energy conserved for exponentially long times, so the energy error stays bounded
  // (Hairer, Lubich & Wanner, Geometric Numerical Integration, IX.8, Thm. 8.1). Otherwise the
  // energy error of a one-step method drifts, at most linearly in t over the horizons where its
  // global error is small (HLW IX.8's counterpart for non-symplectic methods).
  bool symplectic = false;
  // Numerical dissipation by design (BDF; generalized-alpha with rho_inf < 1): the energy error
  // is the damping of the modes it resolves poorly, one-signed, linear while they still carry energy.
  bool dissipative = false;
  // Discrete Noether theorem: the momentum map of the model's symmetry is conserved exactly by
  // the scheme, so its error is round-off (sqrt(n) by Brouwer's law, linear if biased).
  bool conserves_momentum_map = false;
  // The stability region contains an interval of the imaginary axis around 0 (the classical
  // fourth-order Runge-Kutta method: |h w| <= 2 sqrt 2; Stormer-Verlet and its compositions:
  // |h w| < 2; implicit A-stable methods: all of it). Without it (the explicit midpoint rule,
  // explicit Euler) undamped oscillations grow by 1 + O((h w)^4) per step at every h, so the
  // largest stable step depends on the horizon: h_max ~ (T w^4)^(-1/3) for the explicit midpoint
  // rule (the stability map measures it at two horizons).
  bool imaginary_axis_stable = true;
  // Where the method knows it in closed form on a linear oscillation y'' = -w^2 y, the end y* of
  // that interval: stable for h w < y* (the classical fourth-order Runge-Kutta method: 2 sqrt 2;
  // Stormer-Verlet, which a variational or constrained Verlet step is on a linear system: 2);
  // NaN where not declared (compositions,
  // whose interval depends on their coefficients). The stability map uses it to tell a solver
  // failure at the method's stability limit from one below it.
  double imaginary_axis_bound = std::numeric_limits<double>::quiet_NaN();
  // The state moves only by the action of the group on the configuration (Cayley or exp
  // updates: variational Lie group integrators, Munthe-Kaas and commutator-free methods), so
  // R^T R = I and |q| = 1 hold to round-off at every step whatever the step's accuracy;
  // otherwise they hold to the method's accuracy (Runge-Kutta in embedded coordinates), its
  // Newton tolerance (constrained schemes) or a stabilisation (Baumgarte).
  bool on_manifold = false;
};
// The traits field by field (a described record, app/common/record.hpp): how they are printed and
// how the Python package reads and writes them, from this one list.
template <class V>
void describe(V& v, MethodTraits& t) {
  v("implicit", t.implicit);
  v("symmetric", t.symmetric);
  v("symplectic", t.symplectic);
  v("dissipative", t.dissipative);
  v("conserves_momentum_map", t.conserves_momentum_map);
  v("imaginary_axis_stable", t.imaginary_axis_stable);
  v("imaginary_axis_bound", t.imaginary_axis_bound);
  v("on_manifold", t.on_manifold);
}

// Builds a stepper on one formulation type (after GeometricIntegrators.jl, whose methods are
// typed on the problem they accept). The equation type an integrator consumes is the type its
// factory takes, read off the factory's signature by consuming() below, so a declared kind and
// the form the scheme uses cannot disagree, and the one checked downcast is written here.
class StepperFactory {
 public:
  using Make = std::function<std::unique_ptr<TimeStepper>(const Formulation&, const IntegratorSettings&, double t0)>;

  StepperFactory() = default;  // empty: the catalogue refuses an integrator without a factory
  FormulationKind consumes() const { return consumes_; }
  explicit operator bool() const { return static_cast<bool>(make_); }
  // Builds on `form`, which must be of kind consumes() (the runner guarantees it; otherwise
  // std::logic_error naming both kinds).
  std::unique_ptr<TimeStepper> operator()(const Formulation& form, const IntegratorSettings& s, double t0) const {
    return make_(form, s, t0);
  }

 private:
  template <class Build>
  friend StepperFactory consuming(Build build);
  StepperFactory(FormulationKind consumes, Make make) : consumes_(consumes), make_(std::move(make)) {}

  FormulationKind consumes_ = FormulationKind::EmbeddedOde;
  Make make_;
};

namespace detail {
// The first parameter of a (non-generic) lambda's call operator.
template <class CallOperator>
struct FirstParameter;
template <class Lambda, class Result, class First, class... Rest>
struct FirstParameter<Result (Lambda::*)(First, Rest...) const> {
  using type = First;
};
}  // namespace detail

// A factory from `build(const Form&, const IntegratorSettings&, double t0)`, where Form is one
// of the formulation types (OdeFormulation, DaeFormulation, ...): it consumes Form::kKind.
//   consuming([](const OdeFormulation& ode, const IntegratorSettings& s, double t0) { ... })
template <class Build>
StepperFactory consuming(Build build) {
  using Parameter = typename detail::FirstParameter<decltype(&Build::operator())>::type;
  using Form = std::remove_cvref_t<Parameter>;
  static_assert(std::is_same_v<Parameter, const Form&>, "a stepper factory takes its formulation as const Form&");
  static_assert(std::is_base_of_v<Formulation, Form> && !std::is_same_v<Form, Formulation>,
                "a stepper factory takes one formulation type (OdeFormulation, DaeFormulation, ...), not Formulation");
  constexpr FormulationKind kind = Form::kKind;
  return StepperFactory(kind, [build = std::move(build)](const Formulation& f, const IntegratorSettings& s,
                                                         double t0) -> std::unique_ptr<TimeStepper> {
    const auto* form = dynamic_cast<const Form*>(&f);
    if (!form || f.kind() != kind)
      throw std::logic_error("a stepper on the " + to_string(kind) + " form was handed the " + to_string(f.kind()) +
                             " form");
    return build(*form, s, t0);
  });
}

struct IntegratorInfo {
  std::string name;          // command-line name, lower case
  int order = 0;             // order of accuracy, checked by the generic convergence tests
  bool adaptive = false;     // step chosen by error control (declares rtol and atol) rather than fixed h
  MethodTraits traits;       // what theory predicts of it (checked by the generic tests)
  std::string summary;       // one line for `tetherbench list`
  std::vector<SettingSpec> settings;  // what it reads from IntegratorSettings besides h
  // Builds a stepper on a formulation of kind `consumes` (the runner guarantees the kind):
  // consuming(...) above.
  StepperFactory make;
  // Optional: settings that are each valid alone but not together (e.g. a projection only one
  // of the integrator's methods supports). Returns the key to blame and what it should be, or
  // an empty key when the combination runs. Case files, --set and setting sweeps are checked
  // with it before anything runs (exit status 2), like a single bad value.
  struct SettingConflict {
    std::string key, expected;
  };
  std::function<SettingConflict(const IntegratorSettings&)> conflict = nullptr;  // none: every combination runs
  // Optional: why the integrator cannot run this form of the kind it consumes (a scheme whose
  // Newton needs analytic tangents the form does not provide); empty when it runs. The runner
  // (why_not_applicable) treats a non-empty reason as a kind the model does not offer: the run
  // is "n/a: ..." (declined, not failed).
  std::function<std::string(const Formulation&)> why_not = nullptr;  // none: every form of its kind runs
  // How it treats a model whose motion jumps at its switches (SwitchingFunctions::impacts, issue
  // 48), in words for the tables ("locates each switch and restarts after the form's impact
  // law"); empty: it has neither event location nor an impact law, and the runner declines such a
  // model for it with that reason.
  std::string impacts_by = {};
  // Optional: why the setting `key` has nothing to act on in this form (e.g. a stabilisation of
  // constraints on a form that has none: DaeFormulation::why_not_stabilised), empty when it acts.
  // A setting given for the integrator in a case file (or swept by its setting sweep) that acts on
  // none of the case's forms is refused (exit status 2), and so is a --set that acts on none of
  // the command's cases: its value would otherwise stand beside results it did not shape.
  std::function<std::string(const std::string& key, const Formulation&)> idle_setting = nullptr;  // none: all act
  // Where its steps run: "" in compiled code; otherwise the interpreter that runs them ("python":
  // an integrator registered from the Python package, python/). Its runtimes are that
  // interpreter's, not comparable with compiled methods' (the tables say so beside them), and its
  // runs stay in the calling process: a worker process (app/running/isolation.hpp) could not call back
  // into the interpreter.
  std::string interpreter = {};
  // The one equation type it integrates: the type its factory takes, never written by hand.
  FormulationKind consumes = make.consumes();
};

bool all_finite(const Eigen::VectorXd& y);

}  // namespace tb
