// viz -o picture.png: the SVG drawn by rsvg-convert (librsvg) in a child process. No shell is
// involved (posix_spawn with an argument list), so no file name is ever interpreted.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "tac3map/io/error.hpp"
#include "tac3map/output/viz.hpp"

extern char** environ;

namespace tac3map {
namespace {

// A private temporary folder, removed with its files on destruction.
class TempFolder {
 public:
  TempFolder() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = base != nullptr && *base != '\0' ? base : "/tmp";
    pattern += "/tac3map-viz-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr)
      throw InputError("cannot make a temporary folder for the PNG: " +
                       std::string(std::strerror(errno)));
    path_ = pattern;
  }
  ~TempFolder() {
    for (const char* name : {"picture.svg", "picture.png", "errors.txt"})
      ::unlink((path_ + "/" + name).c_str());
    ::rmdir(path_.c_str());
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  std::string file(const char* name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

}  // namespace

std::string findRsvgConvert() {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t from = 0;
  while (from <= dirs.size()) {
    const std::size_t colon = std::min(dirs.find(':', from), dirs.size());
    std::string candidate(colon == from ? std::string(".") : dirs.substr(from, colon - from));
    candidate += "/rsvg-convert";
    struct stat info {};
    if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    from = colon + 1;
  }
  return "";
}

std::string svgToPng(const std::string& svg) {
  const std::string program = findRsvgConvert();
  if (program.empty())
    throw InputError(
        "PNG output needs rsvg-convert, which is not on the PATH (Debian package librsvg2-bin); "
        "install it or write .svg");
  const TempFolder folder;
  const std::string in = folder.file("picture.svg"), out = folder.file("picture.png"),
                    errors = folder.file("errors.txt");
  {
    std::ofstream file(in, std::ios::binary);
    file << svg;
    if (!file.flush()) throw InputError(in + ": cannot write the temporary SVG");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::string a0 = "rsvg-convert", a1 = "--format=png", a2 = "--output=" + out, a3 = in;
  char* argv[] = {a0.data(), a1.data(), a2.data(), a3.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    throw InputError("cannot run " + program + ": " + std::string(std::strerror(spawned)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      throw InputError("waiting for rsvg-convert: " + std::string(std::strerror(errno)));
  std::string why = slurp(errors);
  while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
  for (char& c : why)
    if (c == '\n') c = ' ';
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::string message = "rsvg-convert failed";
    if (WIFEXITED(status)) {
      message += " (exit status ";
      message += std::to_string(WEXITSTATUS(status));
      message += ")";
    } else {
      message += " (killed by a signal)";
    }
    if (!why.empty()) message += ": " + why;
    throw InputError(message);
  }
  std::string png = slurp(out);
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0)
    throw InputError("rsvg-convert wrote no PNG" + (why.empty() ? std::string() : ": " + why));
  return png;
}

}  // namespace tac3map
