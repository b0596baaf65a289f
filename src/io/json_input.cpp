#include "tac3map/io/json_input.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "tac3map/io/error.hpp"

namespace tac3map {
namespace {

std::size_t lineOfByte(const std::string& text, std::size_t byte) {
  const std::size_t end = std::min(byte, text.size());
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + end, '\n'));
}

}  // namespace

std::string readWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) failIn(path, "cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

nlohmann::json parseJson(const std::string& text, const std::string& source) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    // nlohmann's message starts with "[json.exception.parse_error.101] parse error at line..".
    const auto colon = what.find(": ");
    failAt(source, lineOfByte(text, e.byte),
           "invalid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)));
  }
}

const nlohmann::json& jsonField(const nlohmann::json& object, const char* key,
                                const std::string& where, const std::string& source) {
  if (!object.is_object()) failIn(source, where + ": expected a JSON object");
  auto it = object.find(key);
  if (it == object.end()) failIn(source, where + ": missing field \"" + key + "\"");
  return *it;
}

}  // namespace tac3map
