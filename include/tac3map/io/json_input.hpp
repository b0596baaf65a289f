// Reading JSON input files (machines, sweep specs, profiles) with one-line errors that name
// the file and line (syntax) or the file and JSON path (a missing or wrong field).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tac3map {

std::string readWholeFile(const std::string& path);  // InputError if it cannot be read
nlohmann::json parseJson(const std::string& text, const std::string& source);
inline nlohmann::json loadJson(const std::string& path) {
  return parseJson(readWholeFile(path), path);
}

// object[key], or InputError "source: where: missing field "key"".
const nlohmann::json& jsonField(const nlohmann::json& object, const char* key,
                                const std::string& where, const std::string& source);

}  // namespace tac3map
