#include "tac3map/mapping/mapping_context.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "tac3map/io/error.hpp"
#include "tac3map/io/integer_text.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;

// The text after `prefix` with surrounding blanks (and a Windows '\r') removed.
std::string rest(const std::string& line, std::size_t prefix) {
  const std::string blanks = " \t\r";
  const std::size_t first = line.find_first_not_of(blanks, prefix);
  if (first == std::string::npos) return "";
  return line.substr(first, line.find_last_not_of(blanks) - first + 1);
}

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> list;
  for (std::string word; in >> word;) list.push_back(word);
  return list;
}

// The header comments of a coordinates file: every line up to its first rank line.
MappingContext fromCoordinatesHeader(std::istream& in, const std::string& path) {
  MappingContext context;
  context.source = path;
  std::string line;
  std::getline(in, line);  // '# tac3map mapping 1'
  for (std::size_t number = 2; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (line[0] != '#') break;  // the first rank: the header is over
    if (line.rfind("# machine-file ", 0) == 0) {
      context.machineFile = rest(line, 15);
    } else if (line.rfind("# machine ", 0) == 0) {  // '# machine NAME SIZES'
      const std::vector<std::string> w = words(line.substr(10));
      if (w.size() < 2) continue;  // a free comment, not the machine line
      context.machineShape = w.back();
      for (std::size_t i = 0; i + 1 < w.size(); ++i) context.machineName += (i ? " " : "") + w[i];
    } else if (line.rfind("# shape ", 0) == 0) {  // '# shape S offset O'
      const std::vector<std::string> w = words(line.substr(8));
      if (w.size() == 3 && w[1] == "offset") {
        context.shape = w[0];
        context.offset = w[2];
      }
    } else if (line.rfind("# ranks-per-node ", 0) == 0) {
      const std::string k = rest(line, 17);
      const std::optional<int> value = wholeInteger<int>(k);
      if (!value || *value < 1 || *value > 4096)
        failAt(path, number, "expected '# ranks-per-node K', K from 1 to 4096, got '" + k + "'");
      context.ranksPerNode = *value;
    }
  }
  return context;
}

// The top-level fields of a JSON mapping (rankmap.hpp's json format).
std::optional<MappingContext> fromJson(std::istream& in, const std::string& path) {
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;  // the reader says why
  MappingContext context;
  context.source = path;
  const auto text = [&](const char* key, std::string& field) {
    const auto it = doc.find(key);
    if (it == doc.end()) return;
    if (!it->is_string()) failIn(path, std::string(key) + ": expected a string");
    field = it->get<std::string>();
  };
  text("machine", context.machineName);
  text("machine_file", context.machineFile);
  text("shape", context.shape);
  text("offset", context.offset);
  if (const auto k = doc.find("ranks_per_node"); k != doc.end()) {
    if (!k->is_number_integer() || k->get<long long>() < 1 || k->get<long long>() > 4096)
      failIn(path, "ranks_per_node: expected an integer from 1 to 4096");
    context.ranksPerNode = k->get<int>();
  }
  return context;
}

bool isFile(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

}  // namespace

std::string formatMappingContext(const std::string& machineName, const std::string& machineShape,
                                 const std::string& machineFile, const std::string& shape,
                                 const std::string& offset, int ranksPerNode) {
  std::string text = "# machine " + machineName + " " + machineShape + "\n";
  text += "# shape " + shape + " offset " + offset + "\n";
  if (!machineFile.empty()) text += "# machine-file " + machineFile + "\n";
  text += "# ranks-per-node " + std::to_string(ranksPerNode) + "\n";
  return text;
}

std::optional<MappingContext> readMappingContext(const std::string& path) {
  if (!isFile(path)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string start;
  if (!std::getline(in, start)) return std::nullopt;
  if (start.rfind("# tac3map mapping 1", 0) == 0) {
    in.seekg(0);
    return fromCoordinatesHeader(in, path);
  }
  const std::size_t first = start.find_first_not_of(" \t\r");
  if (first == std::string::npos || start[first] != '{') return std::nullopt;
  in.seekg(0);
  return fromJson(in, path);
}

std::string locateMachineFile(const MappingContext& context) {
  if (context.machineFile.empty()) return "";
  const fs::path written(context.machineFile);
  if (isFile(written)) return written.string();
  if (written.is_absolute()) return "";
  const fs::path beside = fs::path(context.source).parent_path() / written;
  return isFile(beside) ? beside.string() : "";
}

}  // namespace tac3map
