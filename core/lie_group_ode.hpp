#pragma once
// The Lie group form of a model's embedded ODE form (core/formulation.hpp,
// LieGroupOdeFormulation): the same equations, observation and physical state, with the state
// read as a point of the ODE form's manifold(). A model offers it in its menu as
//   offer<LieGroupOdeOf<OdeForm>>(FormulationKind::LieGroupOde, p, ic)
// and declines it, with the reason, when its configuration space is all vector space.

#include <concepts>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/formulation.hpp"

namespace tb {

// An embedded ODE form that offers the analytic tangents of its rate rows in mass-matrix form
// (LieGroupOdeFormulation::rate_residual, rate_tangent_entries), with the same signatures.
template <class Ode>
concept OffersLieRateTangents = requires(const Ode& ode, double t, const Eigen::VectorXd& y, Eigen::VectorXd& r,
                                         std::vector<Eigen::Triplet<double>>& e) {
  ode.rate_residual(t, y, y, r, r);
  ode.rate_tangent_entries(t, y, y, e, e, e);
};
// One whose rate rows carry multipliers (LieGroupOdeFormulation::rate_multipliers).
template <class Ode>
concept OffersRateMultipliers = requires(const Ode& ode, double t, const Eigen::VectorXd& y, Eigen::VectorXd& l) {
  { ode.rate_multipliers() } -> std::convertible_to<int>;
  ode.rate_multiplier_values(t, y, l);
};
// One that says why it has none.
template <class Ode>
concept ExplainsNoLieRateTangents = requires(const Ode& ode) {
  { ode.why_not_rate_tangents() } -> std::convertible_to<std::string>;
};

template <class Ode>
class LieGroupOdeOf final : public LieGroupOdeFormulation {
 public:
  template <class... Args>
  explicit LieGroupOdeOf(const Args&... args) : ode_(args...), manifold_(ode_.manifold()) {
    if (manifold_.is_vector_space() || manifold_.state_size() != ode_.state_size())
      throw std::logic_error("LieGroupOdeOf: the ODE form declares no rotation or direction (decline the Lie group form)");
  }
  int state_size() const override { return ode_.state_size(); }
  // The same coordinates as the ODE form's (R and q stored whole, moved by exp to round-off).
  IntegratedConstraints integrated_constraints() const override { return ode_.integrated_constraints(); }
  Eigen::VectorXd initial_state() const override { return ode_.initial_state(); }
  Observation observe(double t, const Eigen::VectorXd& y) const override { return ode_.observe(t, y); }
  std::vector<std::string> extra_column_names() const override { return ode_.extra_column_names(); }
  Eigen::VectorXd physical_state(const Eigen::VectorXd& y) const override { return ode_.physical_state(y); }
  const lie::HomogeneousProduct& manifold() const override { return manifold_; }
  // The rates in y act on R and q; the ODE's own rows give the vector entries (its R and q rows,
  // the same field in embedded form, are computed and not used).
  void field(double t, const Eigen::VectorXd& y, Eigen::VectorXd& xi) const override {
    ode_.rhs(t, y, dydt_);
    manifold_.algebra_field(y, dydt_, xi);
  }
  // The rate rows' tangents, forwarded to the ODE form when it offers them.
  std::string why_not_tangents() const override {
    if constexpr (OffersLieRateTangents<Ode>) return "";
    else if constexpr (ExplainsNoLieRateTangents<Ode>) return ode_.why_not_rate_tangents();
    else return LieGroupOdeFormulation::why_not_tangents();
  }
  void rate_residual(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot, Eigen::VectorXd& r,
                     Eigen::VectorXd& S) const override {
    if constexpr (OffersLieRateTangents<Ode>) ode_.rate_residual(t, y, vdot, r, S);
  }
  void rate_tangent_entries(double t, const Eigen::VectorXd& y, const Eigen::VectorXd& vdot,
                            std::vector<Eigen::Triplet<double>>& M, std::vector<Eigen::Triplet<double>>& K,
                            std::vector<Eigen::Triplet<double>>& C) const override {
    if constexpr (OffersLieRateTangents<Ode>) ode_.rate_tangent_entries(t, y, vdot, M, K, C);
  }
  int rate_multipliers() const override {
    if constexpr (OffersRateMultipliers<Ode>) return ode_.rate_multipliers();
    else return 0;
  }
  void rate_multiplier_values(double t, const Eigen::VectorXd& y, Eigen::VectorXd& lambda) const override {
    if constexpr (OffersRateMultipliers<Ode>) ode_.rate_multiplier_values(t, y, lambda);
    else lambda.resize(0);
  }
  const Ode& ode() const { return ode_; }

 private:
  Ode ode_;
  lie::HomogeneousProduct manifold_;
  mutable Eigen::VectorXd dydt_;  // field() workspace (one formulation object per run)
};

}  // namespace tb
