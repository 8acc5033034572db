#pragma once
// Node placements of the hanging tether that need no solve: the straight chord (the damped
// cases' initial shape) and a parabola through A and B with a prescribed polygon length (a
// gently sagging initial shape, and the static solver's starting guess: every element a
// little stretched, so the tangent stiffness is positive definite from the first iteration).

#include <vector>

#include "models/hanging_tether/mechanics.hpp"

namespace tb::hanging_tether {

// r_j = A + (j/N)(B - A): every element compressed to |B - A|/N < u.
std::vector<Vec3> straight_shape(const Parameters& p);

// Nodes equally spaced in arc length along the parabola in the vertical plane through A and B,
//   r(xi) = A + xi d + (dz xi/l + 4 s xi (l - xi)/l^2) e3,   0 <= xi <= l,
// (d the horizontal unit direction from A to B, l the horizontal span, dz = (B - A).e3, s the
// sag below the chord at mid-span), with s chosen by bisection so that the polygon r_0..r_N
// has length polygon_length (> |B - A|). Arc length from a 4096-segment polyline. With weights
// (one per element), element e takes the share weights[e] / sum(weights) of the arc instead of 1/N.
std::vector<Vec3> parabola_shape(const Parameters& p, double polygon_length, const std::vector<double>& weights = {});

// The step-cost benchmarks' state (benchmarks/benchmark_models.cpp): the parabola of polygon length
// L with the middle half of the elements (N/4 <= e < N/4 + N/2) given the weight 1 - strain and
// the others 1 + strain, so that for even N the middle elements are about strain shorter than
// u (slack: a tension-only element there has no force) and the outer ones about strain longer
// (taut), in two contiguous regions as in a sagging cable whose middle has gone slack.
std::vector<Vec3> slack_middle_shape(const Parameters& p, double strain);

}  // namespace tb::hanging_tether
