#include "app/common/build_identity.hpp"

namespace tb {

std::string describe(const BuildIdentity& build) {
  std::string text = build.hash + " (git " + build.commit;
  if (!build.tree.empty()) text += ", " + build.tree;
  return text + "; built " + build.built_at + ")";
}

}  // namespace tb
