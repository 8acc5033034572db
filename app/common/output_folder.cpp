#include "app/common/output_folder.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/table_reader.hpp"  // InputError

namespace tb {

namespace {
std::string shown(const std::string& text) { return "'" + text + "'"; }
}  // namespace

std::string output_folder(const std::string& option, const std::string& text, const std::vector<std::string>& writes) {
  namespace fs = std::filesystem;
  if (text.empty()) throw InputError(option + ": expected a folder to write into, got an empty path");
  std::error_code ec;
  if (fs::exists(text, ec) && !fs::is_directory(text, ec))
    throw InputError(option + ": expected a folder to write into, got " + shown(text) + ", an existing file");
  // The folder will be made where the nearest existing ancestor is: it must be a folder we may
  // write into (--out FILE/sub is refused here, not by the filesystem after the runs).
  fs::path ancestor = fs::absolute(text, ec);
  while (!ancestor.empty() && !fs::exists(ancestor, ec) && ancestor != ancestor.parent_path()) ancestor = ancestor.parent_path();
  if (!fs::is_directory(ancestor, ec))
    throw InputError(option + ": expected a folder that can be made, got " + shown(text) + ": " + shown(ancestor.string()) +
                     " is an existing file, not a folder");
  if (access(ancestor.c_str(), W_OK | X_OK) != 0)
    throw InputError(option + ": expected a folder that can be made or written, got " + shown(text) + ": " +
                     shown(ancestor.string()) + " is not writable");
  for (const auto& name : writes) {
    const fs::path file = fs::path(text) / name;
    if (fs::exists(file, ec) && !fs::is_regular_file(file, ec))
      throw InputError(option + ": expected " + shown(text) + " to be writable as a report folder, but its " + name +
                       " exists and is not a regular file (a folder?)");
  }
  return text;
}

void write_file_whole(const std::string& path, const std::string& bytes) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << bytes;
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + temporary);
  }
  std::filesystem::rename(temporary, path);
}

}  // namespace tb
