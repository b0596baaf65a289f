// Reading JSON inputs (io/json_input.hpp) and the shape of every input error (io/error.hpp):
// syntax errors name the line, repeated keys and out-of-range numbers name the file and JSON
// path, a folder is not a file, and a huge quoted token is not echoed whole.
#include "tac3map/io/json_input.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

std::string errorOf(const std::string& text) {
  try {
    parseJson(text, "in.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(JsonInput, ARepeatedKeyIsAnErrorWithItsPath) {
  EXPECT_EQ(errorOf(R"({"name": "a", "name": "b"})"),
            "in.json: top level: key \"name\" given twice");
  EXPECT_EQ(errorOf(R"({"axes": [{"size": 4, "size": 5}]})"),
            "in.json: axes[0]: key \"size\" given twice");
  EXPECT_EQ(errorOf(R"({"a": [1, {"x": 1}, [2, 3, {"y": 1, "y": 2}]]})"),
            "in.json: a[2][2]: key \"y\" given twice");
  // The same key in two objects is fine, and the value is kept.
  const nlohmann::json doc = parseJson(R"({"a": {"k": 1}, "b": [{"k": 2}, {"k": 3}]})", "in.json");
  EXPECT_EQ(doc["b"][1]["k"], 3);
}

TEST(JsonInput, SyntaxAndNumberErrorsSayWhere) {
  EXPECT_EQ(errorOf("{\n\"a\": [1, 2\n"),
            "in.json:3: invalid JSON: syntax error while parsing array - unexpected end of input; "
            "expected ']'");
  EXPECT_EQ(errorOf(R"({"a": 1e999})"), "in.json: invalid JSON: number overflow parsing '1e999'");
}

TEST(JsonInput, AFolderIsNotAFile) {
  const std::string folder = std::filesystem::temp_directory_path().string();
  try {
    readWholeFile(folder);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), folder + ": is a folder, not a file");
  }
}

TEST(InputErrors, AQuotedTokenOrALongWordKeepsEightyCharacters) {
  const std::string token(5'000'000, 'x');
  try {
    failAt("t.trace", 3, "unexpected '" + token + "' at the end");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "t.trace:3: unexpected '" + std::string(kMaxQuotedLength - 3, 'x') + "...' at the end");
  }
  try {
    failAt("t.trace", 4, "message of " + std::string(400, '9') + " bytes");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "t.trace:4: message of " + std::string(kMaxQuotedLength - 3, '9') + "... bytes");
  }
  // Apostrophes inside words open no quote; short quotes stay whole.
  const std::string prose = "the rank's node " + std::string(200, '-') + " the job's box 'ab'";
  EXPECT_EQ(shortenedMessage(prose).find("rank's node"), 4u);
  EXPECT_NE(shortenedMessage(prose).find("'ab'"), std::string::npos);
  EXPECT_EQ(std::string(InputError("short").what()), "short");
  // Two million quotes that open and never close: each is looked after once, not rescanned.
  std::string quotes;
  for (int i = 0; i < 2'000'000; ++i) quotes += " 'x";
  EXPECT_LE(shortenedMessage(quotes).size(), kMaxErrorLength + 40);
}

TEST(InputErrors, ALongMessageKeepsItsStartAndEnd) {
  std::string many;
  for (int i = 0; i < 200; ++i) many += " word" + std::to_string(i);
  try {
    failIn("t.json", "expected one of" + many + ": the end");
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_LE(what.size(), kMaxErrorLength + 40);
    EXPECT_EQ(what.rfind("t.json: expected one of word0 word1", 0), 0u) << what;
    EXPECT_NE(what.find("characters left out"), std::string::npos);
    EXPECT_EQ(what.substr(what.size() - 9), ": the end");
  }
}

}  // namespace
}  // namespace tac3map
