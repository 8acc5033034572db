#pragma once
// A study's parameter, described once: its name, what it means, its default (the text a user
// would give to --param NAME=TEXT) and the parser that turns a text into the study's typed value
// (an InputError naming the parameter for a bad one). The study lists info() in its StudyInfo
// (what `list` shows and --param is checked against) and reads the value with read(): the
// default goes through the same parser as a given text, so the two cannot disagree, and nothing
// else looks the name up.

#include <functional>
#include <string>

#include "app/input/study.hpp"

namespace tb {

template <class T>
struct StudyParameterOf {
  std::string name, meaning, default_text;
  std::function<T(const std::string& text)> parse;

  StudyParameter info() const { return {name, meaning, default_text}; }
  bool given(const StudyContext& context) const { return context.parameters.count(name) > 0; }
  // The text in force: the one given with --param, else the default.
  std::string text(const StudyContext& context) const {
    const auto it = context.parameters.find(name);
    return it == context.parameters.end() ? default_text : it->second;
  }
  T read(const StudyContext& context) const { return parse(text(context)); }
};

}  // namespace tb
