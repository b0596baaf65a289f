// Writing output files so that a failed run never leaves a half-written file behind: the
// content goes to a temporary file in the destination folder and is renamed into place.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace tac3map {

// Writes `content` to `path` atomically (temporary file in the same folder, then rename).
void writeFileAtomically(const std::string& path, const std::string& content);

// The same in two phases, for commands with several outputs: construct one StagedFile per
// output (each writes its temporary file), then commit() them all. A StagedFile destroyed
// without commit() removes its temporary file, so a failure leaves no output at all.
class StagedFile {
 public:
  StagedFile(std::string path, const std::string& content);
  StagedFile(StagedFile&& other) noexcept;
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  StagedFile& operator=(StagedFile&&) = delete;
  ~StagedFile();

  void commit();

 private:
  std::string path_, temp_;
};

// A trace written as an index file and one file per rank beside it (SimGrid TI, DUMPI):
// texts[r] goes to the file nameOf(r) in indexPath's folder, and the index lists those names,
// one per line; all of them are staged and committed together.
void writeIndexedFiles(const std::string& indexPath, const std::vector<std::string>& texts,
                       const std::function<std::string(int rank)>& nameOf);

// Checks before any work that a command's outputs can be written, so that a long search does
// not end in an error: `outputs` are (option, path) pairs, empty paths skipped. InputError when
// a path is a folder, its folder does not exist, or two options name the same file.
void checkOutputPaths(const std::vector<std::pair<std::string, std::string>>& outputs);

}  // namespace tac3map
