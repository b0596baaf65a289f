#include "tac3map/model/mpi_profile.hpp"

#include <filesystem>

#include "tac3map/io/error.hpp"
#include "tac3map/io/json_input.hpp"
#include "tac3map/io/suggest.hpp"

namespace tac3map {

// The shipped profiles' text (topologies/mpi/*.json), compiled in by CMake
// (cmake/EmbedMpiProfiles.cmake): name, JSON.
struct EmbeddedProfile {
  const char* name;
  const char* json;
};
extern const EmbeddedProfile kEmbeddedMpiProfiles[];
extern const std::size_t kEmbeddedMpiProfileCount;

namespace {

using nlohmann::json;

CollectiveRule readRule(const json& value, CollectiveOp op, const std::string& where,
                        const std::string& source) {
  if (!value.is_object()) failIn(source, where + ": expected an object");
  checkFields(value, {"ranks_below", "bytes_below", "total_below", "power_of_two", "algorithm"},
              where, source);
  CollectiveRule rule;
  if (value.contains("ranks_below"))
    rule.ranksBelow = static_cast<int>(
        jsonInteger(value["ranks_below"], 1, 1 << 30, where + ".ranks_below", source));
  if (value.contains("bytes_below"))
    rule.bytesBelow = jsonUnsigned(value["bytes_below"], 1, std::uint64_t{1} << 62,
                                   where + ".bytes_below", source);
  if (value.contains("total_below"))
    rule.totalBelow = jsonUnsigned(value["total_below"], 1, std::uint64_t{1} << 62,
                                   where + ".total_below", source);
  if (value.contains("power_of_two")) {
    if (!value["power_of_two"].is_boolean())
      failIn(source, where + ".power_of_two: expected true or false");
    rule.powerOfTwo = value["power_of_two"].get<bool>();
  }
  const json& name = jsonField(value, "algorithm", where, source);
  const std::string text = name.is_string() ? name.get<std::string>() : name.dump();
  const std::optional<Algorithm> algorithm = algorithmNamed(op, text);
  if (!algorithm) {
    std::string known;
    for (Algorithm a : algorithmsOf(op)) known += (known.empty() ? "" : ", ") + std::string(algorithmName(a));
    failIn(source, where + ".algorithm: '" + text + "' is not an algorithm of " +
                       collectiveName(op) + " (" + known + ")");
  }
  rule.algorithm = *algorithm;
  return rule;
}

}  // namespace

MpiProfile parseMpiProfile(const std::string& text, const std::string& source) {
  const json doc = parseJson(text, source);
  if (!doc.is_object()) failIn(source, "top level: expected a JSON object");
  checkFields(doc,
              {"name", "description", "eager_limit", "message_overhead", "collectives",
               "simgrid_selector", "sources"},
              "", source);
  MpiProfile profile;
  profile.source = source;
  const json& name = jsonField(doc, "name", "top level", source);
  if (!name.is_string() || name.get<std::string>().empty())
    failIn(source, "name: expected a non-empty string");
  profile.name = name.get<std::string>();
  if (doc.contains("description") && doc["description"].is_string())
    profile.description = doc["description"].get<std::string>();
  if (doc.contains("eager_limit"))
    profile.eagerLimit =
        jsonUnsigned(doc["eager_limit"], 0, std::uint64_t{1} << 62, "eager_limit", source);
  if (doc.contains("message_overhead")) {
    profile.messageOverhead = jsonNonNegative(doc["message_overhead"], "message_overhead", source);
    if (profile.messageOverhead > 1)
      failIn(source, "message_overhead: " + doc["message_overhead"].dump() +
                         " s a message is not an MPI's software cost (expected at most 1 s)");
  }
  if (doc.contains("simgrid_selector")) {
    if (!doc["simgrid_selector"].is_string())
      failIn(source, "simgrid_selector: expected a string (SimGrid's smpi/coll-selector)");
    profile.simgridSelector = doc["simgrid_selector"].get<std::string>();
  }
  if (doc.contains("collectives")) {
    const json& collectives = doc["collectives"];
    if (!collectives.is_object())
      failIn(source, "collectives: expected an object {\"allreduce\": [rules...], ...}");
    for (const auto& [opName, rules] : collectives.items()) {
      const std::string where = "collectives." + opName;
      const std::optional<CollectiveOp> op = collectiveNamed(opName);
      if (!op) failIn(source, where + ": unknown collective");
      if (!rules.is_array()) failIn(source, where + ": expected a list of rules");
      std::vector<CollectiveRule>& list = profile.collectives[*op];
      for (std::size_t i = 0; i < rules.size(); ++i)
        list.push_back(readRule(rules[i], *op, where + "[" + std::to_string(i) + "]", source));
    }
  }
  return profile;
}

std::vector<std::string> mpiProfileNames() {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < kEmbeddedMpiProfileCount; ++i)
    names.emplace_back(kEmbeddedMpiProfiles[i].name);
  return names;
}

MpiProfile loadMpiProfile(const std::string& nameOrPath, const std::string& relativeTo) {
  for (std::size_t i = 0; i < kEmbeddedMpiProfileCount; ++i)
    if (nameOrPath == kEmbeddedMpiProfiles[i].name)
      return parseMpiProfile(kEmbeddedMpiProfiles[i].json,
                             std::string("built-in MPI profile ") + kEmbeddedMpiProfiles[i].name);
  namespace fs = std::filesystem;
  fs::path path(nameOrPath);
  if (path.is_relative() && !relativeTo.empty()) path = fs::path(relativeTo).parent_path() / path;
  std::error_code error;
  const bool looksLikeFile = nameOrPath.find('/') != std::string::npos ||
                             path.extension() == ".json" || fs::exists(path, error);
  if (!looksLikeFile) {
    std::string known;
    for (const std::string& name : mpiProfileNames()) known += (known.empty() ? "" : ", ") + name;
    const std::string hint = didYouMean(nameOrPath, mpiProfileNames());
    throw InputError("unknown MPI profile '" + nameOrPath + "'" + hint + " (built in: " + known +
                     "; or a profile file, docs/mpi-profiles.md)");
  }
  return parseMpiProfile(readWholeFile(path.string()), path.string());
}

}  // namespace tac3map
