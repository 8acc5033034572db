#pragma once
// The Lie group form of a model's embedded ODE form (core/formulation.hpp,
// LieGroupOdeFormulation): the same equations, observation and physical state, with the state
// read as a point of the ODE form's manifold(). A model offers it in its menu as
//   offer<LieGroupOdeOf<OdeForm>>(FormulationKind::LieGroupOde, p, ic)
// and declines it, with the reason, when its configuration space is all vector space.

#include <stdexcept>
#include <utility>

#include "core/formulation.hpp"

namespace tb {

template <class Ode>
class LieGroupOdeOf final : public LieGroupOdeFormulation {
 public:
  template <class... Args>
  explicit LieGroupOdeOf(const Args&... args) : ode_(args...), manifold_(ode_.manifold()) {
    if (manifold_.is_vector_space() || manifold_.state_size() != ode_.state_size())
      throw std::logic_error("LieGroupOdeOf: the ODE form declares no rotation or direction (decline the Lie group form)");
  }
  int state_size() const override { return ode_.state_size(); }
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
  const Ode& ode() const { return ode_; }

 private:
  Ode ode_;
  lie::HomogeneousProduct manifold_;
  mutable Eigen::VectorXd dydt_;  // field() workspace (one formulation object per run)
};

}  // namespace tb
