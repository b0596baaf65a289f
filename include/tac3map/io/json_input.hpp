// Reading JSON input files (machines, sweep specs, profiles) with one-line errors that name
// the file and line (syntax) or the file and JSON path (a missing or wrong field).
#pragma once

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tac3map {

std::string readWholeFile(const std::string& path);  // InputError if it cannot be read
// The file opened for reading, or an InputError naming it: a folder, or a file that cannot be
// opened (`what`: "mapping file", "node table", ...).
std::ifstream openInputFile(const std::string& path, const std::string& what);
nlohmann::json parseJson(const std::string& text, const std::string& source);
inline nlohmann::json loadJson(const std::string& path) {
  return parseJson(readWholeFile(path), path);
}

// object[key], or InputError "source: where: missing field "key"".
const nlohmann::json& jsonField(const nlohmann::json& object, const char* key,
                                const std::string& where, const std::string& source);

// `value` as an integer from `low` to `high`, read in 64 bits, or InputError
// "source: where: expected an integer from low to high, got 1e+20" for a float (1e20, 2.5),
// a negative, a value out of range or past 64 bits: nothing is truncated or wrapped.
std::int64_t jsonInteger(const nlohmann::json& value, std::int64_t low, std::int64_t high,
                         const std::string& where, const std::string& source);
// InputError "source: where.key: unknown field (did you mean 'seeds'?)" for the first key of
// `object` not in `known` (a typo would otherwise silently run with a default). `where` empty:
// the top level ("source: key: ...").
void checkFields(const nlohmann::json& object, const std::vector<std::string>& known,
                 const std::string& where, const std::string& source);

// `value` as a finite number above 0 (or at least 0), or InputError "source: where: expected a
// positive number" ("... a number >= 0"): bandwidths, latencies.
double jsonPositive(const nlohmann::json& value, const std::string& where,
                    const std::string& source);
double jsonNonNegative(const nlohmann::json& value, const std::string& where,
                       const std::string& source);
// The same for unsigned values up to 2^64 - 1 (seeds, trial counts).
std::uint64_t jsonUnsigned(const nlohmann::json& value, std::uint64_t low, std::uint64_t high,
                           const std::string& where, const std::string& source);

}  // namespace tac3map
