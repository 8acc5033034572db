#pragma once
// Switching functions (issue 47): scalar functions of a model's physical state whose sign
// changes where its equations stop being smooth. A tension-only element's stretch
// s = |x| - u is one: taut (s >= 0) its force is EA s / u along x, slack (s < 0) it has none,
// so the force is C^0 and the potential C^1 across s = 0, not C^2. A method that locates the
// zeros of s (an adaptive method's dense output, a SUNDIALS root finder) can stop a step
// there and restart on the other side, so that no step's error estimate straddles the kink;
// a fixed-step method steps through it. The same functions let the measurement count the
// switches a run makes and time them, for every integrator alike.
//
// A model declares them once (Model::declare_switching); every formulation it builds carries
// them (Formulation::switching), evaluated on the formulation's physical_state, the layout
// every form of the model shares.

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tb {

class Formulation;

struct SwitchingFunctions {
  int count = 0;
  // What each function is, for messages and reports ("the stretch |x| - u of each element (m)").
  std::string meaning;
  // s_i and ds_i/dt at time t and a physical state (Formulation::physical_state's layout; t for
  // a model that drives a point of its own, whose position the stretches read). The rate lets a
  // measurement interpolate s between samples by cubic Hermite, whose error is O(dt^4).
  std::function<void(double t, const Eigen::VectorXd& physical, Eigen::VectorXd& s, Eigen::VectorXd& rate)> evaluate;
  // The elements' axial stiffness EA/u (N/m): a taut element's tension is stiffness * s (where a reel
  // changes u, the stiffness at the start).
  double stiffness = 0.0;
  // Where the state jumps at a switch (issue 48: a unilateral link snapping taut, where Newton's
  // impact law takes the velocity along it), what jumps, in words; empty where the switches are
  // kinks only (a tension-only elastic element: the force is continuous, the velocity too). A
  // model with impacts is run only by integrators that say how they treat them
  // (IntegratorInfo::impacts_by): a method that steps through a velocity jump as if the motion
  // were smooth integrates another system.
  std::string impacts = {};
  // Where a closing can rebound (e > 0): the link is slack again at once after the impact, though the
  // tension its state implies may stay positive (in free space m v_t^2 / l, whatever the gap), so an
  // observer reads a link that was taut and is now inside its length beyond gap_tolerance, moving
  // inwards, as opened, and a flight whose gap turns from outward to inward across a sample interval
  // while its extrapolation reached the length as a hit and its rebound inside that interval.
  bool rebounds = false;
  // A model with impacts declares its links' gaps here (m, <= 0 admissible: |r| - l of a string)
  // and their rates; `evaluate` is then each link's tension where it holds (over `stiffness`, so in
  // metres too), the function whose zero is an opening. A link is taut from a closing (its gap
  // reaching 0) to an opening (its tension falling through 0), slack from an opening to a closing:
  // an observer that watches the gap only while slack and the tension only while taut is not
  // misled by a method's drift of the length (a taut string a few ulps short is not slack).
  std::function<void(double t, const Eigen::VectorXd& physical, Eigen::VectorXd& gap, Eigen::VectorXd& rate)> gap = {};
  // The gap within which a link counts as at its length (m): a method's drift of a taut link's length
  // stays inside it, and a link goes slack only once its gap has passed it.
  double gap_tolerance = 0.0;
  // The energy Newton's law takes from a state if link i closes there with the state's velocity
  // (1/2 (1 - e^2) gdot^2 / (G M^-1 G^T) for one link; 0 where it is not closing), so that a run's
  // loss at a snap can be judged against the law on its own pre-impact state.
  std::function<double(double t, const Eigen::VectorXd& physical, int link)> impact_loss = {};
  // A discretisation in which the links are compliant instead (issue 48's "no events" baseline: a penalty
  // regularisation, a stiff spring-dashpot in place of the impact law). Its state does not jump, so the
  // methods without an impact law run it, and a snap's loss is the dashpot's work over the contact, which
  // lasts about contact_time (s): an observer reads a snap's energy that long after it.
  struct Compliant {
    double contact_time = 0.0;
    std::string words;  // the regularisation and its numbers, for the pages
    // Every link's pull at a physical state (N, one entry a link, in the switching functions' order): the
    // regularisation's force along it, negative where it pushes. All at once: each needs the links' gaps.
    std::function<Eigen::VectorXd(const Eigen::VectorXd& physical)> pulls = {};
    // Their spring's part alone (N; empty: not given): the elastic force, without the dashpot's jump of c v at a
    // closing (the largest pull of a critical contact is that jump, c v_r, which grows as sqrt(k)).
    std::function<Eigen::VectorXd(const Eigen::VectorXd& physical)> elastic = {};
    // The same discretisation's EmbeddedOde form with its stiffness times `factor` (its damping ratio kept): how
    // the regularisation's distance from the impact law falls as the links stiffen.
    std::function<std::unique_ptr<Formulation>(double factor)> stiffened = {};
  };
  std::map<std::string, Compliant> compliant = {};
  const Compliant* compliant_in(const std::string& discretisation) const {
    const auto it = compliant.find(discretisation);
    return it == compliant.end() ? nullptr : &it->second;
  }
};

// What a model knows in closed form about its switches at a case's parameters (issue 47 item 3:
// the bungee drop, the whirling string), declared by the model where its case is one
// (Model::declare_switching_closed_form), so that a study judges every integrator's events
// against it without naming the model.
struct SwitchingClosedForm {
  std::string name;   // "the bungee drop"
  std::string basis;  // what the answers are and where they hold, one or two sentences
  // true: the answers are the model's own exact motion. false: a limit the model approaches
  // (the inextensible string as EA grows), stated beside the runs, which are then judged against
  // a converged reference solution of the model itself.
  bool exact = true;
  // The switch times in (0, t_end] the closed form gives (all of them when exact; the first few
  // it covers otherwise), and the direction of each (true: slack -> taut).
  std::function<std::vector<std::pair<double, bool>>(double t_end)> switches;
  // The peak tension of the first taut phase (N); NaN where the closed form gives none.
  double peak_tension = std::numeric_limits<double>::quiet_NaN();
  // The peak tension over the compared horizon (N), where the closed form gives it (a catch's snap
  // load); NaN where it gives none.
  double peak_tension_over_run = std::numeric_limits<double>::quiet_NaN();
  // The exact physical state at t (false where the closed form gives none): the global error.
  std::function<bool(double t, Eigen::VectorXd& physical)> state;
  // Where the switches are impacts (SwitchingFunctions::impacts): the energy Newton's law takes at
  // each slack -> taut switch of switches(), in their order (J); empty otherwise.
  std::vector<double> impact_losses = {};
  // Where the impacts accumulate (Zeno: e > 0 and rebounds that shorten geometrically, their times
  // converging): when (s), and the energy all of them take together (J, the sum of the impact law's
  // losses, the listed hits' and the series of the rest); NaN where the hits do not accumulate.
  double accumulation_time = std::numeric_limits<double>::quiet_NaN();
  double accumulation_loss = std::numeric_limits<double>::quiet_NaN();
  // After the accumulation, where the links are held: what a scheme that does not hold a link in persistent
  // contact, but lets it leave each step and closes it again by Newton's law, loses per unit of its step h over
  // (accumulation_time, t_end] (J/s). At that micro-bounce's steady state (the link leaving each step inward at
  // e a h/(1 + e), closing at a h/(1 + e), a = W lambda the gap's acceleration its tension lambda would give, W =
  // G M^-1 G^T) a step loses 1/2 (1 - e)/(1 + e) (a h)^2 / W, so this is (1 - e)/(2 (1 + e)) times the integral of
  // W lambda^2 over the exact motion (one link of mass m: T^2/m). Empty where not given.
  std::function<double(double t_end)> reclosing_loss_rate = {};
  // Its other named numbers, for the tables: {"entry speed v0 (m/s)", 3.96}, ...
  std::vector<std::pair<std::string, double>> quantities;
};

// What a model knows in closed form about its FIRST switch only (issue 48: Model C's slack cables
// fly freely under constant forces until the first link snaps taut, a motion of constant
// accelerations; nothing after that snap has a closed form). Declared by the model where its case
// is one (Model::declare_first_switch_closed_form); a study judged against a converged reference
// prints every run's first switch against it as well, so that the reference itself is checked
// against an exact answer.
struct FirstSwitchClosedForm {
  std::string name;   // "the free flight to the first snap"
  std::string basis;  // what the answer is and why it is exact, one or two sentences
  double t = std::numeric_limits<double>::quiet_NaN();  // the first switch (s): a closing (slack -> taut)
  std::vector<int> elements;                            // the switching functions (links) that close there
  double impact_loss = std::numeric_limits<double>::quiet_NaN();  // the energy Newton's law takes there (J)
  // Its other named numbers, for the tables: {"closing speed (m/s)", 0.81}, ...
  std::vector<std::pair<std::string, double>> quantities;
};

// Which side of its kink a switching function's value is on: s >= 0 is the taut side (an
// element exactly at its unstretched length counts as taut, the side whose one-sided stiffness
// a Newton step landing there uses: mechanics/elastic_element.hpp).
inline bool switching_side(double s) { return s >= 0.0; }

// The zero of a switching function g on [a, b], g(a) = ga on one side (switching_side) and g(b) =
// gb on the other, by the Illinois variant of regula falsi (the end kept twice has its value
// halved) down to 4 ulps of `time_scale` (the time the bracket stands for, so that a bracket in a
// step's length and one in absolute time stop alike). Returns the bracket's end on gb's side: a
// method restarted there is past the kink.
inline double bracket_switch(double a, double b, double ga, double gb, double time_scale, const std::function<double(double)>& g) {
  const bool old_side = switching_side(ga);
  int kept = 0;  // which end stayed last: 1 a, -1 b
  for (int it = 0; it < 200 && b - a > 4.0 * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(time_scale));
       ++it) {
    double m = b - gb * (b - a) / (gb - ga);
    if (!(m > a && m < b)) m = 0.5 * (a + b);
    const double gm = g(m);
    if (switching_side(gm) == old_side) {
      a = m, ga = gm;
      if (kept == 1) gb *= 0.5;
      kept = 1;
    } else {
      b = m, gb = gm;
      if (kept == -1) ga *= 0.5;
      kept = -1;
    }
  }
  return b;
}

}  // namespace tb
