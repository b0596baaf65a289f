// The fixture of the tests that run the tac3map command end to end (tests/cli/*_test.cpp, one
// file per command): CommandTest's scratch folder and run(), and the inputs they share. One
// named class for every file, so that gtest sees one fixture for the suite "Cli".
#pragma once

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_test.hpp"
#include "test_support.hpp"

namespace tac3map {

namespace fs = std::filesystem;
using testing::Outcome;
using testing::slurp;
using testing::sourcePath;

class Cli : public testing::CommandTest {
 protected:
  Cli() : CommandTest("tac3map-cli-") {}

  // A bad input must fail with one line naming the problem and leave no output behind.
  void expectCleanFailure(const std::string& args, const std::string& expected) {
    const Outcome r = run(args);
    EXPECT_NE(r.exitCode, 0) << args;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(outputEmpty()) << args;
  }
};

// The JSON lines of a file (sweep's results).
inline std::vector<nlohmann::json> jsonLines(const std::string& path) {
  std::vector<nlohmann::json> result;
  std::istringstream in(testing::slurp(path));
  for (std::string line; std::getline(in, line);) result.push_back(nlohmann::json::parse(line));
  return result;
}

inline const std::string kFx10 = "--machine topologies/fx10.json";
inline const std::string kCg64 = "--trace examples/cg64-sendrecv.trace";
// The paper's model (these CG traces have no barriers; by default their phases overlap).
inline const std::string kPaperModel = " --engines 1 --overlap none";

}  // namespace tac3map
