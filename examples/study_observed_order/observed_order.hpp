#pragma once
#include <Eigen/Dense>

#include "app/input/study.hpp"
namespace my_studies {
// The study `observed_order` (observed_order.cpp).
tb::StudyInfo observed_order_info();
// The observed order from three final states at steps h, h/2, h/4 (Richardson: the differences
// of successive states shrink by 2^p): log2(|y_h - y_h/2| / |y_h/2 - y_h/4|) in the infinity norm.
double observed_order(const Eigen::VectorXd& y_h, const Eigen::VectorXd& y_h2, const Eigen::VectorXd& y_h4);
}  // namespace my_studies
