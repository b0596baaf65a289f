// A fixture for tests that run the tac3map command as a process, as users and job scripts
// run it: a scratch folder per test (inputs beside an out/ folder for outputs), run() in the
// source folder with stdout and stderr captured, and outputEmpty() to check that a failed
// command left nothing behind.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tac3map::testing {

struct Outcome {
  int exitCode;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class CommandTest : public ::testing::Test {
 protected:
  explicit CommandTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           (prefix_ + info->name() + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "out");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs a shell command in the source folder, capturing its standard output and error.
  Outcome runShell(const std::string& command) {
    const std::string out = (dir_ / "stdout").string(), err = (dir_ / "stderr").string();
    const std::string full = std::string("cd ") + TAC3MAP_SOURCE_DIR + " && { " + command +
                             "; } >" + out + " 2>" + err + " </dev/null";
    const int status = std::system(full.c_str());
    return {WEXITSTATUS(status), slurp(out), slurp(err)};
  }
  Outcome run(const std::string& args) {
    std::string command = TAC3MAP_BINARY;  // += : g++ 12 warns falsely on a + chain here
    command += ' ';
    command += args;
    return runShell(command);
  }
  std::string file(const std::string& name, const std::string& text) {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::string out(const std::string& name) const { return (dir_ / "out" / name).string(); }
  bool outputEmpty() const { return std::filesystem::is_empty(dir_ / "out"); }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
};

}  // namespace tac3map::testing
