#pragma once
// Where two solutions of one initial value problem part (issue 44 point 20): the reference and
// its cross-check, two solvers at a tight tolerance, agree at first to about their tolerance;
// a motion that amplifies differences (an ill-conditioned or chaotic one) makes them part at an
// exponential rate no solver's own error has. Printed where a ranking against the reference is
// inconclusive, so that a reader sees whether the disagreement is the references' error or the
// motion's sensitivity.

#include <Eigen/Dense>
#include <string>
#include <vector>

namespace tb {

struct Separation {
  bool found = false;        // at least 3 grid points after t = 0, and a nonzero difference
  double early = 0.0;        // max-norm difference at the first grid point after t = 0
  double agree_until = 0.0;  // the last grid time before which it stays within 100x early
  double apart_at = 0.0;     // the first grid time it reaches a tenth of its final value
  double apart = 0.0;        // the difference there
  double final = 0.0;        // the difference at the last grid point
  double max_rate = 0.0;     // the largest e-folding rate (1/s) between neighbouring grid points before apart_at
  double max_rate_at = 0.0;  // where (the later point of the pair)
};

// a and b on the grid t_k = k * interval (the same size each); std::invalid_argument otherwise.
Separation separation(const std::vector<Eigen::VectorXd>& a, const std::vector<Eigen::VectorXd>& b, double interval);

// "differ by 1.46e-11 at 0.144 s and stay within 100x that up to 2.16 s, then part at e-folding
// rates up to 21.1 /s (at 2.45 s) to 1.67 at 4.32 s (x1.6e+09 in 2.16 s; 12.4 at the end)".
std::string separation_words(const Separation& s);

}  // namespace tb
