#pragma once
// What a hybrid form did at each located jump, in its own words (issue 48): which one-sided link
// changed its mode, how, and what the impulses took. An observer on a sample grid reads switches
// from the samples and cannot see a link that closes and opens again between two samples (on a
// ten-link slack cable two links exchanging slow snaps, one closing as the other opens microseconds
// apart); the form's own record sees every jump, so a study can compare the event sequences of two
// runs where the samples cannot.
#include <vector>

namespace tb {

struct LoggedSwitch {
  enum class Kind {
    Opened,        // held before the jump, free after it (its tension at 0, or released by the impulses or modes)
    Snapped,       // free and closing (at its length, moving beyond it): an impulse, held after it
    Touched,       // free and closing, an impulse, and free after the same jump (a graze: it would push; or a rebound)
    HeldAtLength,  // free and not closing, held after the jump (at its length, the modes' acceleration test)
    // At its length and moving inwards after the jump's impulses (a rebound, or a held link kicked inwards by
    // another's snap), its flight back so short or shallow that the form held it with its inward rate stopped
    // plastically (the end of an accumulation of impacts, core/hybrid_constrained_ode.cpp: settle_modes).
    HeldInFlight,
  };
  double t = 0.0;   // the jump's time (s)
  int element = 0;  // which switching function (link), in the form's switching functions' order
  Kind kind = Kind::Opened;
  double loss = 0.0;  // the jump's booked loss (J), on its first record only (the impulses act on all links at once)
  // A closing's rate before the impulse, over the link's length (1/s: G_i v / s_i; |r|'/l on a string); 0 for
  // the other kinds. A graze closes at a small fraction of a snap's.
  double closing_rate = 0.0;
  // A HeldInFlight entry's flight: closing_rate is its inward rate (G_i v / s_i < 0) when held; its depth
  // (relative to the length), its duration (s), and the energy the stop took (J, within the jump's loss).
  double flight_depth = 0.0, flight_time = 0.0, flight_loss = 0.0;
};

inline const char* kind_name(LoggedSwitch::Kind kind) {
  switch (kind) {
    case LoggedSwitch::Kind::Opened: return "opened";
    case LoggedSwitch::Kind::Snapped: return "snapped, held";
    case LoggedSwitch::Kind::Touched: return "touched, left free";
    case LoggedSwitch::Kind::HeldAtLength: return "held at its length";
    case LoggedSwitch::Kind::HeldInFlight: return "held in flight, its inward rate stopped";
  }
  return "";
}

// A form's record over one run: a jump earlier than the last recorded starts a new run (the same form
// object integrated again, a timing pass).
class JumpLog {
 public:
  void begin_jump(double t) {
    if (!records_.empty() && t < records_.back().t) records_.clear();
    first_of_jump_ = records_.size();
  }
  void add(double t, int element, LoggedSwitch::Kind kind, double closing_rate = 0.0) {
    records_.push_back({t, element, kind, 0.0, closing_rate});
  }
  void add_held_flight(double t, int element, double inward_rate, double depth, double flight_time, double loss) {
    records_.push_back({t, element, LoggedSwitch::Kind::HeldInFlight, 0.0, inward_rate, depth, flight_time, loss});
  }
  // The jump's loss, on its first record (none: no record carries it).
  void end_jump(double loss) {
    if (first_of_jump_ < records_.size()) records_[first_of_jump_].loss = loss;
  }
  const std::vector<LoggedSwitch>& records() const { return records_; }

 private:
  std::vector<LoggedSwitch> records_;
  size_t first_of_jump_ = 0;
};

}  // namespace tb
