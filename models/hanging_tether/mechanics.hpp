#pragma once
// The hanging tether (seed 004, "Tether Models" slides; SPEC "Formulations", textbook systems):
// an elastic tether of unstretched length L, mass per length mu and axial stiffness EA, fixed
// at two points A and B (|B - A| < L), hanging in gravity (+e3 down). Nodes r_0 = A,
// r_1 ... r_{N-1} free, r_N = B; element e (0 <= e < N) joins r_e and r_{e+1}, unstretched
// length u = L/N, stiffness kappa = EA/u, elastic force F_e = F(r_{e+1} - r_e) of
// linear_element_force (mechanics/elastic_element.hpp).
//
// Two discretisations of the tether's mass (the slides' models 1 and 2), selected by the case:
//  Lumped ("1 Lumped mass model", slide: T_k = sum_{j=0}^{N_k} 1/2 m_k/(N_k+1) |rdot_j|^2,
//          U_k = sum_{j=0}^{N_k} m_k/(N_k+1) g z_j): the tether mass mu L split into N+1 equal
//          point masses mu L/(N+1), one on every node including the two fixed ones, joined by
//          massless springs (the slides' massless rigid links, made elastic here). The masses on
//          A and B are carried by the supports, so the hanging weight is mu L g (N-1)/(N+1).
//  Full   ("2 Full model", slide: T_k = sum_j 1/6 m (|rdot_j|^2 + |rdot_{j-1}|^2 + rdot_j.rdot_{j-1}),
//          U_k = sum_j 1/2 m g (z_j + z_{j-1})): we read "chain of rigid links with mass" as
//          the consistent-mass linear finite element of SPEC "Model A" — mass distributed
//          uniformly along each element, velocity linear between its nodes — with the slide's
//          per-element mass "m_k/(N_k+1)" taken as mu u = mu L/N (the slide's N_k+1 sums N_k
//          element masses to less than m_k, a copy from the lumped slide; mu u is what
//          integrating mu |rdot|^2/2 along the element gives). Mass matrix m/6 (1 4 1) per free
//          node, gravity load m g e3 per free node (m/2 from each neighbouring element).
// Both discretisations have the same springs; they differ in mass matrix and in gravity load.
//
// Damping (optional, rate zeta >= 0): a distributed viscous force -zeta mu rdot per unit
// length. Its generalised force is -zeta M v for both mass models (exactly, for the consistent
// mass; lumped like the mass, for the lumped one), so it damps every mode at the same rate
// zeta/2 and dissipates power zeta v^T M v = 2 zeta T. The dissipated work is integrated as one
// extra state component so the energy balance E(t) - E(0) + W_dissipated(t) stays the metric.
//
// A driven top anchor (optional, anchor_drive.hpp; issue 47): r_0 = A(t), v_0 = A'(t), a_0 = A''(t)
// prescribed. The free nodes then obey (M a)_f = f_f - zeta (M v)_f over the whole tether's mass
// matrix, i.e. M_ff a_f = f_f - M_f0 (a_0 + zeta v_0) - zeta M_ff v_f, where M_f0 (m/6 I on free
// node 1 for the consistent mass, 0 for the lumped one) couples node 1 to the anchor's motion.
// The energy E stays the whole tether's (node 0 moving, its kinetic and potential terms included),
// and the anchor's work W_drive joins the balance E - E0 = W_drive - W_dissipated. From
// dE/dt = -zeta v_f.(M v)_f + v_0.((M a)_0 - f_0), with v_0.M_01 a_1 = d/dt(v_0.M_01 v_1) - a_0.M_01 v_1,
// v_0.M_00 a_0 = d/dt(1/2 M_00 |v_0|^2) and node 0's weight m_0 g e3 . v_0 = d/dt(m_0 g d):
//   W_drive(t) = B(t) + W~(t),   B = v_0.M_01 v_1 + 1/2 M_00 |v_0|^2 - m_0 g d(t)   (B(0) = 0: A starts at rest),
//   W~' = P~ = -a_0.M_01 v_1 - F_0.v_0                              (F_0: element 0's force on node 0),
// so that only P~, a function of t, r_1 and v_1, is integrated (no free node's acceleration is
// needed) and W~ is one more state component. W_dissipated stays the drag on the free nodes,
// zeta v_f.(M v)_f; the drag on node 0 is the anchor's to overcome, inside W_drive.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "numerics/block_tridiagonal.hpp"
#include "core/formulation.hpp"
#include "numerics/lie_group.hpp"
#include "models/hanging_tether/anchor_drive.hpp"

namespace tb::hanging_tether {

enum class Discretisation { Lumped, Full };
std::string to_string(Discretisation d);

struct Parameters {
  int N = 20;                 // number of elements (N - 1 free nodes)
  double mu = 0.0;            // mass per unstretched length (kg/m)
  double length = 0.0;        // unstretched length L (m)
  double EA = 0.0;            // axial stiffness (N)
  double g = 9.81;            // gravity along +e3 (down)
  Vec3 A = Vec3::Zero();      // fixed end r_0 (m)
  Vec3 B = Vec3::Zero();      // fixed end r_N (m)
  double damping_rate = 0.0;  // zeta (1/s), see above
  // Elements that cannot push ([model] cable = "tension_only", issue 47; mechanics/
  // elastic_element.hpp): a slack element has no force and no stiffness. The damping above is a
  // viscous force on the nodes' velocities (drag-like, -zeta mu rdot per length), not an axial
  // dashpot on the strain rate, so it acts on a slack element's mass as on a taut one's: a slack
  // rope has no axial force, but it still moves through the damping medium.
  bool tension_only = false;
  AnchorDrive drive;  // A driven down along e3 from A at t = 0 (inactive: A fixed)
  Discretisation discretisation = Discretisation::Full;

  double u() const { return length / N; }                       // unstretched element length
  double kappa() const { return EA / u(); }                     // element stiffness
  double element_mass() const { return mu * u(); }              // full model: mass of one element
  double lumped_node_mass() const { return mu * length / (N + 1); }  // lumped model: every node
};

// Why these parameters cannot describe a hanging tether ("" when they can): at least one free
// node, positive parameters, a horizontal span (the catenary of a vertical chord degenerates)
// and a chord shorter than the tether.
std::string parameter_problem(const Parameters& p);

// Node positions and velocities r[0..N], v[0..N] at time t (r[0] = A(t), r[N] = B, v[0] = A'(t),
// v[N] = 0), the anchor's acceleration a0 = A''(t), the work dissipated by the damping since
// t = 0 and, with a driven anchor, W~ (the integrated part of its work, see above).
struct State {
  double t = 0.0;
  std::vector<Vec3> r, v;
  Vec3 a0 = Vec3::Zero();
  double dissipated_work = 0.0;
  double drive_work_integral = 0.0;
};

// dF/dx of linear_element_force: kappa ((1 - u/|x|) I + (u/|x|) xhat xhat^T), from
// d(x/|x|)/dx = (I - xhat xhat^T)/|x|. Positive definite when the element is stretched; 0 for a
// slack tension-only element (element_slack).
Mat3 element_stiffness(double kappa, double u, const Vec3& x, bool tension_only = false);

class Mechanics {
 public:
  explicit Mechanics(const Parameters& p);
  const Parameters& params() const { return p_; }
  int free_nodes() const { return p_.N - 1; }

  // Mass of a free node as gravity sees it (its load m g e3): mu L/(N+1) (lumped), mu u (full:
  // half of each neighbouring element, the consistent load of a uniform weight).
  double free_node_gravity_mass() const;

  // Net force on the free nodes 1..N-1 (3(N-1) entries): F_j - F_{j-1} + m_j g e3 — elastic
  // plus gravity, without inertia or damping. Zero at a static equilibrium.
  void static_forces(const std::vector<Vec3>& r, Eigen::VectorXd& f) const;
  // Tangent stiffness S = -d(static_forces)/d(r_1..r_{N-1}), block-tridiagonal over the free
  // nodes: S_jj = K_{j-1} + K_j, S_{j,j+1} = -K_j, S_{j,j-1} = -K_{j-1}, K_e = element_stiffness
  // of element e. Symmetric; positive definite when every element is stretched.
  void assemble_tangent_stiffness(const std::vector<Vec3>& r, BlockTridiagonal3& S) const;

  // The (constant) mass matrix over the free nodes, factored at construction.
  const BlockTridiagonal3& mass_matrix() const { return mass_; }
  // Accelerations of the free nodes from M a = static_forces - zeta M v, i.e.
  // a = M^{-1} static_forces - zeta v; one O(N) solve with the factored mass matrix. With a driven
  // anchor, static_forces gains anchor_inertia_force.
  void accelerations(const State& s, Eigen::VectorXd& acc) const;
  // -M_10 (a_0 + zeta v_0): the driven anchor's inertial and drag coupling to free node 1 (zero for
  // the lumped mass, whose M_10 = 0, and for a fixed anchor).
  Vec3 anchor_inertia_force(const State& s) const;
  // M_10 v_0, the free nodes' drag -zeta (M v)_f's part from the anchor's velocity, over zeta.
  Vec3 anchor_momentum_on_node1(const Vec3& v0) const;
  // The anchor's work (above): P~ = -a_0.M_01 v_1 - F_0.v_0 and W_drive = B + W~. P~ reads only t and
  // free node 1 (r_1, v_1): the forms' work terms call it so, without unpacking a state.
  double drive_power(const State& s) const { return drive_power(s.t, s.r[1], s.v[1]); }
  double drive_power(double t, const Vec3& r1, const Vec3& v1) const;
  double drive_work(const State& s) const;
  bool driven() const { return p_.drive.active(); }
  Vec3 anchor_position(double t) const { return p_.A + p_.drive.displacement(t) * e3; }

  double kinetic_energy(const State& s) const;
  double elastic_energy(const State& s) const;
  double gravity_energy(const State& s) const;  // -sum m g z (slide U_k, e3 down)
  double potential_energy(const State& s) const { return elastic_energy(s) + gravity_energy(s); }
  // The drag's power on the free nodes, zeta v_f.(M v)_f = 2 zeta T - zeta v_0.(M v)_0 (the
  // second term 0 for a fixed anchor).
  double dissipation_power(const State& s) const;
  double stretched_length(const State& s) const;

  Observation observe(const State& s) const;
  // With a driven anchor, anchor_work (W_drive) after the columns of a fixed one.
  std::vector<std::string> extra_column_names() const;

  // State vector (shared by the formulation and the physical state):
  // [r_1..r_{N-1}, v_1..v_{N-1}, dissipated_work], size 6(N-1) + 1, and W~ after it where the
  // anchor is driven.
  int state_size() const { return 6 * free_nodes() + 1 + (driven() ? 1 : 0); }
  Eigen::VectorXd pack(const State& s) const;
  void unpack_into(double t, const Eigen::VectorXd& y, State& s) const;  // reuses s's storage
  State unpack(double t, const Eigen::VectorXd& y) const;
  // Nodes r[0..N] at time t from given free-node positions, with the ends added.
  std::vector<Vec3> nodes_from_free(double t, const Eigen::VectorXd& free_positions) const;

 private:
  Parameters p_;
  BlockTridiagonal3 mass_;  // factored; solve_in_place is const
};

}  // namespace tb::hanging_tether
