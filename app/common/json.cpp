#include "app/common/json.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/table_reader.hpp"  // InputError

namespace tb {

const JsonValue* JsonValue::find(const std::string& key) const {
  for (const auto& [name, value] : members)
    if (name == key) return &value;
  return nullptr;
}

double JsonValue::number() const {
  if (kind != Kind::number) return std::numeric_limits<double>::quiet_NaN();
  const bool negative = !text.empty() && text[0] == '-';
  const std::string magnitude = negative ? text.substr(1) : text;
  if (magnitude == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (magnitude == "Infinity") return negative ? -HUGE_VAL : HUGE_VAL;
  return std::strtod(text.c_str(), nullptr);
}

std::string JsonValue::scalar_text() const {
  switch (kind) {
    case Kind::string:
    case Kind::number: return text;
    case Kind::boolean: return boolean ? "true" : "false";
    default: return "";
  }
}

namespace {

// A recursive-descent reader of RFC 8259 JSON (plus the NaN and Infinity literals).
class Parser {
 public:
  Parser(const std::string& text, const std::string& where) : s_(text), where_(where) {}

  JsonValue document() {
    JsonValue v = value(0);
    skip_space();
    if (i_ != s_.size()) fail("the end of the document");
    return v;
  }

 private:
  const std::string& s_;
  const std::string& where_;
  size_t i_ = 0;
  static constexpr int kMaxDepth = 200;  // deeper nesting is no benchmark output: refused, not a stack overflow

  [[noreturn]] void fail(const std::string& expected) const {
    size_t line = 1, column = 1;
    for (size_t k = 0; k < i_ && k < s_.size(); ++k) {
      if (s_[k] == '\n') ++line, column = 1;
      else ++column;
    }
    throw InputError(where_ + ": line " + std::to_string(line) + ", column " + std::to_string(column) + ": expected " +
                     expected);
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool take(const std::string& word) {
    if (s_.compare(i_, word.size(), word) != 0) return false;
    i_ += word.size();
    return true;
  }

  JsonValue value(int depth) {
    if (depth > kMaxDepth) fail("at most " + std::to_string(kMaxDepth) + " levels of nesting");
    skip_space();
    if (i_ >= s_.size()) fail("a value");
    JsonValue v;
    const char ch = s_[i_];
    if (ch == '{') return object(depth);
    if (ch == '[') return array(depth);
    if (ch == '"') {
      v.kind = JsonValue::Kind::string;
      v.text = string();
    } else if (take("true")) {
      v.kind = JsonValue::Kind::boolean;
      v.boolean = true;
    } else if (take("false")) {
      v.kind = JsonValue::Kind::boolean;
    } else if (take("null")) {
      v.kind = JsonValue::Kind::null;
    } else {
      v.kind = JsonValue::Kind::number;
      v.text = number();
    }
    return v;
  }

  JsonValue object(int depth) {
    JsonValue v;
    v.kind = JsonValue::Kind::object;
    ++i_;  // '{'
    skip_space();
    if (i_ < s_.size() && s_[i_] == '}') return ++i_, v;
    for (;;) {
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '"') fail("a member name in double quotes");
      std::string name = string();
      skip_space();
      if (!take(":")) fail("':' after the member name \"" + name + "\"");
      v.members.emplace_back(std::move(name), value(depth + 1));
      skip_space();
      if (take(",")) continue;
      if (take("}")) return v;
      fail("',' or '}' in an object");
    }
  }

  JsonValue array(int depth) {
    JsonValue v;
    v.kind = JsonValue::Kind::array;
    ++i_;  // '['
    skip_space();
    if (i_ < s_.size() && s_[i_] == ']') return ++i_, v;
    for (;;) {
      v.items.push_back(value(depth + 1));
      skip_space();
      if (take(",")) continue;
      if (take("]")) return v;
      fail("',' or ']' in an array");
    }
  }

  std::string number() {
    const size_t start = i_;
    take("-");
    if (take("NaN") || take("Infinity")) return s_.substr(start, i_ - start);
    auto digits = [&] {
      const size_t from = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ > from;
    };
    if (take("0")) {
    } else if (!digits()) {
      i_ = start;
      fail("a value (a number, a string, true, false, null, an array or an object)");
    }
    if (take(".") && !digits()) fail("a digit after the decimal point");
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (!take("+")) take("-");
      if (!digits()) fail("a digit in the exponent");
    }
    return s_.substr(start, i_ - start);
  }

  unsigned hex4() {
    unsigned code = 0;
    for (int k = 0; k < 4; ++k, ++i_) {
      if (i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_]))) fail("four hexadecimal digits after \\u");
      const char c = s_[i_];
      code = code * 16 + unsigned(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return code;
  }
  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out += char(code);
    } else if (code < 0x800) {
      out += char(0xC0 | (code >> 6)), out += char(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += char(0xE0 | (code >> 12)), out += char(0x80 | ((code >> 6) & 0x3F)), out += char(0x80 | (code & 0x3F));
    } else {
      out += char(0xF0 | (code >> 18)), out += char(0x80 | ((code >> 12) & 0x3F));
      out += char(0x80 | ((code >> 6) & 0x3F)), out += char(0x80 | (code & 0x3F));
    }
  }

  std::string string() {
    ++i_;  // '"'
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("'\"' closing the string");
      const char ch = s_[i_++];
      if (ch == '"') return out;
      if (static_cast<unsigned char>(ch) < 0x20) --i_, fail("no control character inside a string (escape it)");
      if (ch != '\\') {
        out += ch;
        continue;
      }
      if (i_ >= s_.size()) fail("an escaped character after '\\'");
      const char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned code = hex4();
          if (code >= 0xDC00 && code <= 0xDFFF) i_ -= 6, fail("a high surrogate (\\uD800-\\uDBFF) before a low one");
          if (code >= 0xD800 && code < 0xDC00) {  // a surrogate pair: the second half must follow
            if (!take("\\u")) fail("the low half of a surrogate pair (\\uDC00-\\uDFFF)");
            const unsigned low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("the low half of a surrogate pair (\\uDC00-\\uDFFF)");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(out, code);
          break;
        }
        default: --i_, fail("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
      }
    }
  }
};

void write_string(std::ostringstream& out, const std::string& s) {
  out << '"';
  for (unsigned char ch : s) {
    switch (ch) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      case '\r': out << "\\r"; break;
      case '\t': out << "\\t"; break;
      default:
        if (ch < 0x20) {
          static const char* hex = "0123456789abcdef";
          out << "\\u00" << hex[ch >> 4] << hex[ch & 15];
        } else {
          out << ch;
        }
    }
  }
  out << '"';
}

void write_value(std::ostringstream& out, const JsonValue& v, int depth) {
  const std::string inner(2 * (depth + 1), ' '), outer(2 * depth, ' ');
  switch (v.kind) {
    case JsonValue::Kind::null: out << "null"; return;
    case JsonValue::Kind::boolean: out << (v.boolean ? "true" : "false"); return;
    case JsonValue::Kind::number: out << v.text; return;
    case JsonValue::Kind::string: write_string(out, v.text); return;
    case JsonValue::Kind::array:
      if (v.items.empty()) return void(out << "[]");
      out << "[\n";
      for (size_t k = 0; k < v.items.size(); ++k) {
        out << inner;
        write_value(out, v.items[k], depth + 1);
        out << (k + 1 < v.items.size() ? ",\n" : "\n");
      }
      out << outer << ']';
      return;
    case JsonValue::Kind::object:
      if (v.members.empty()) return void(out << "{}");
      out << "{\n";
      for (size_t k = 0; k < v.members.size(); ++k) {
        out << inner;
        write_string(out, v.members[k].first);
        out << ": ";
        write_value(out, v.members[k].second, depth + 1);
        out << (k + 1 < v.members.size() ? ",\n" : "\n");
      }
      out << outer << '}';
      return;
  }
}

}  // namespace

JsonValue parse_json(const std::string& text, const std::string& where) { return Parser(text, where).document(); }

JsonValue read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_json(text.str(), path);
}

std::string to_json(const JsonValue& value) {
  std::ostringstream out;
  write_value(out, value, 0);
  out << '\n';
  return out.str();
}

}  // namespace tb
