#pragma once
// Fingerprints of what a stored result was computed from, so that a stale one is refused
// instead of being compared against silently: a canonical text of the inputs (TOML tables with
// sorted keys, numbers to 17 significant digits) hashed with 64-bit FNV-1a.

#include <string>
#include <toml.hpp>

namespace tb {

// Key-sorted, whitespace-free text of a TOML value: equal for equal values however written.
std::string canonical_toml(const toml::value& v);
// 16 hex digits of the 64-bit FNV-1a hash of `text`.
std::string fingerprint_of(const std::string& text);

}  // namespace tb
