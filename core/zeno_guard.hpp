#pragma once
// Zeno accumulation as an event-driven method meets it: located events that stop advancing time.
// Near an accumulation point of impacts (rebounds each e times shorter than the last) a locator either
// resolves ever shorter flights or, once a flight's excursion falls below its integration tolerance,
// keeps finding sign changes of its own interpolation error a few ulps of t apart (a BDF locator at
// rtol 1e-8 on the pendulum's e = 0.5 drop: 2.6 million restarts 8e-12 s apart). Both are an
// accumulation the method cannot pass. A model's form that can tell them apart (a root moving inwards
// inside the flight a rebound has just begun: the solver's own rebounds, no longer resolved) says which
// before this guard fires; the guard is the last line for the rest (issue 48: "detected and reported,
// never looped on").
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/format.hpp"

namespace tb {

class ZenoGuard {
 public:
  // time_scale (s): the fastest motion's time. Jumps closer together than kWindow of it do not advance
  // time; more than kJumps of them in a row are the accumulation.
  explicit ZenoGuard(double time_scale) : window_(kWindow * time_scale) {}

  // Called at every jump a locator hands over (t in s); throws at the accumulation. A jump at an
  // earlier t (a new run on the same form) starts the count again.
  void on_jump(double t) {
    if (std::abs(t - last_t_) < window_) {
      if (++in_place_ > kJumps)
        throw std::runtime_error("Zeno accumulation of impacts at t = " + format_g(t, 10) + " s: " +
                                 std::to_string(kJumps) + " jumps within " + format_g(window_, 3) +
                                 " s of each other (flights shorter than the locator resolves); an event-driven method cannot pass an "
                                 "accumulation point");
    } else {
      in_place_ = 0;
    }
    last_t_ = t;
  }

  static constexpr double kWindow = 1e-9;
  static constexpr int kJumps = 1000;

 private:
  double window_;
  double last_t_ = -1e300;
  int in_place_ = 0;
};

}  // namespace tb
