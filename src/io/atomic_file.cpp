#include "tac3map/io/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

std::string temporaryPathFor(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  // Same folder as the target, so that rename() never crosses a file system.
  std::string name = ".";
  name += target.filename().string();
  name += ".tmp.";
  name += std::to_string(::getpid());
  return (target.parent_path() / name).string();
}

void removeQuietly(const std::string& path) {
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
}

}  // namespace

StagedFile::StagedFile(std::string path, const std::string& content)
    : path_(std::move(path)), temp_(temporaryPathFor(path_)) {
  std::ofstream out(temp_, std::ios::binary | std::ios::trunc);
  if (!out) failIn(path_, std::string("cannot write: ") + std::strerror(errno));
  out << content;
  out.flush();
  if (!out) {
    out.close();
    removeQuietly(temp_);
    failIn(path_, "write failed");
  }
}

StagedFile::StagedFile(StagedFile&& other) noexcept
    : path_(std::move(other.path_)), temp_(std::move(other.temp_)) {
  other.temp_.clear();
}

StagedFile::~StagedFile() {
  if (!temp_.empty()) removeQuietly(temp_);
}

void StagedFile::commit() {
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    failIn(path_, "cannot rename temporary file into place: " + reason);
  }
  temp_.clear();
}

void checkOutputPaths(const std::vector<std::pair<std::string, std::string>>& outputs) {
  namespace fs = std::filesystem;
  std::vector<std::pair<fs::path, std::string>> seen;  // resolved path, option
  for (const auto& [option, path] : outputs) {
    if (path.empty()) continue;
    std::error_code error;
    const fs::path target(path);
    if (fs::is_directory(target, error))
      throw InputError(option + " " + path + ": is a folder, not a file");
    const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    if (!fs::is_directory(folder, error))
      throw InputError(option + " " + path + ": folder '" + folder.string() + "' does not exist");
    const fs::path resolved = fs::weakly_canonical(target, error);
    const fs::path key = error ? fs::absolute(target) : resolved;
    for (const auto& [other, otherOption] : seen)
      if (other == key)
        throw InputError(otherOption + " and " + option + " both name " + path +
                         ": give each output its own file");
    seen.push_back({key, option});
  }
}

void writeFileAtomically(const std::string& path, const std::string& content) {
  StagedFile(path, content).commit();
}

void writeIndexedFiles(const std::string& indexPath, const std::vector<std::string>& texts,
                       const std::function<std::string(int rank)>& nameOf) {
  const std::filesystem::path folder = std::filesystem::path(indexPath).parent_path();
  std::string index;
  std::vector<StagedFile> files;
  files.reserve(texts.size() + 1);
  for (int rank = 0; rank < static_cast<int>(texts.size()); ++rank) {
    const std::string name = nameOf(rank);
    index += name;
    index += '\n';
    files.emplace_back((folder / name).string(), texts[rank]);
  }
  files.emplace_back(indexPath, index);
  for (StagedFile& file : files) file.commit();
}

}  // namespace tac3map
