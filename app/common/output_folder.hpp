#pragma once
// The one check of a folder a command (or a call of the Python package) is told to write into,
// made before anything runs: bad, it is an InputError naming the option.

#include <string>
#include <vector>

namespace tb {

// A folder to write into: a non-empty path that is not an existing file, below a folder that
// exists and is writable (or can be made there), in which none of the files the command `writes`
// (top-level names) exists as anything but a regular file. Checked before anything runs.
std::string output_folder(const std::string& option, const std::string& text, const std::vector<std::string>& writes = {});

// `bytes` into `path` whole or not at all: written beside it as PATH.tmp, checked, then renamed
// over it (a reader never sees half a file); std::runtime_error naming the file it could not write.
void write_file_whole(const std::string& path, const std::string& bytes);

}  // namespace tb
