#include "tac3map/io/json_input.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "tac3map/io/error.hpp"
#include "tac3map/io/suggest.hpp"

namespace tac3map {
namespace {

[[noreturn]] void failRange(const nlohmann::json& value, const std::string& low,
                            const std::string& high, const std::string& where,
                            const std::string& source) {
  std::string got = value.dump();
  if (got.size() > 40) got = got.substr(0, 40) + "...";
  failIn(source, where + ": expected an integer from " + low + " to " + high + ", got " + got);
}

std::size_t lineOfByte(const std::string& text, std::size_t byte) {
  const std::size_t end = std::min(byte, text.size());
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + end, '\n'));
}

}  // namespace

std::ifstream openInputFile(const std::string& path, const std::string& what) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) failIn(path, "is a folder, not a " + what);
  std::ifstream in(path);
  if (!in) failIn(path, "cannot open " + what + ": " + std::strerror(errno));
  return in;
}

std::string readWholeFile(const std::string& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) failIn(path, "is a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) failIn(path, std::string("cannot open file: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

namespace {

// nlohmann's messages start with "[json.exception.parse_error.101] parse error at line ..: ":
// the user needs what follows.
std::string withoutPrefix(const std::string& what) {
  const auto bracket = what.find("] ");
  std::string text = bracket == std::string::npos ? what : what.substr(bracket + 2);
  const auto colon = text.find(": ");
  return text.rfind("parse error", 0) == 0 && colon != std::string::npos ? text.substr(colon + 2)
                                                                         : text;
}

}  // namespace

namespace {

// nlohmann's DOM builder with one check added: a key given twice in one object is an error
// (nlohmann would silently keep the last value). A SAX handler rather than a parse callback:
// the callback parser is about 8 times slower on large machine files. Keeps the open objects
// and arrays for the error's JSON path ("nodes[3]").
class CheckedDom {
 public:
  using json = nlohmann::json;
  CheckedDom(json& result, const std::string& source) : dom_(result), source_(source) {}

  bool null() { return item() && dom_.null(); }
  bool boolean(bool v) { return item() && dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return item() && dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return item() && dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) {
    return item() && dom_.number_float(v, s);
  }
  bool string(json::string_t& v) { return item() && dom_.string(v); }
  bool binary(json::binary_t& v) { return item() && dom_.binary(v); }
  bool start_object(std::size_t n) { return open(true) && dom_.start_object(n); }
  bool end_object() { return close() && dom_.end_object(); }
  bool start_array(std::size_t n) { return open(false) && dom_.start_array(n); }
  bool end_array() { return close() && dom_.end_array(); }
  bool key(json::string_t& k) {
    if (!open_.back().keys.insert(k).second)
      failIn(source_, path() + ": key \"" + k + "\" given twice");
    lastKey_ = k;
    return dom_.key(k);
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    return dom_.parse_error(position, token, e);
  }

 private:
  struct Open {
    bool object;
    std::set<std::string> keys;
    std::size_t items = 0;
    std::string label;
  };
  bool item() {
    if (!open_.empty() && !open_.back().object) ++open_.back().items;
    return true;
  }
  bool open(bool object) {
    std::string label;
    if (!open_.empty()) {
      if (open_.back().object) {
        label = lastKey_;
      } else {
        label = "[";
        label += std::to_string(open_.back().items);
        label += ']';
      }
    }
    open_.push_back({object, {}, 0, label});
    return true;
  }
  bool close() {
    open_.pop_back();
    return item();
  }
  std::string path() const {
    std::string where;
    for (const Open& o : open_) {
      if (!where.empty() && !o.label.empty() && o.label[0] != '[') where += '.';
      where += o.label;
    }
    return where.empty() ? std::string("top level") : where;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  const std::string& source_;
  std::vector<Open> open_;
  std::string lastKey_;
};

}  // namespace

nlohmann::json parseJson(const std::string& text, const std::string& source) {
  try {
    nlohmann::json result;
    CheckedDom dom(result, source);
    nlohmann::json::sax_parse(text, &dom);
    return result;
  } catch (const nlohmann::json::parse_error& e) {
    failAt(source, lineOfByte(text, e.byte), "invalid JSON: " + withoutPrefix(e.what()));
  } catch (const nlohmann::json::exception& e) {
    // Out-of-range numbers (1e999) and the like carry no position.
    failIn(source, "invalid JSON: " + withoutPrefix(e.what()));
  }
}

const nlohmann::json& jsonField(const nlohmann::json& object, const char* key,
                                const std::string& where, const std::string& source) {
  if (!object.is_object()) failIn(source, where + ": expected a JSON object");
  auto it = object.find(key);
  if (it == object.end()) failIn(source, where + ": missing field \"" + key + "\"");
  return *it;
}

std::int64_t jsonInteger(const nlohmann::json& value, std::int64_t low, std::int64_t high,
                         const std::string& where, const std::string& source) {
  bool ok = false;
  std::int64_t result = 0;
  if (value.is_number_unsigned()) {
    const std::uint64_t u = value.get<std::uint64_t>();
    ok = high >= 0 && u <= static_cast<std::uint64_t>(high) &&
         (low < 0 || u >= static_cast<std::uint64_t>(low));
    result = ok ? static_cast<std::int64_t>(u) : 0;
  } else if (value.is_number_integer()) {
    result = value.get<std::int64_t>();
    ok = result >= low && result <= high;
  }
  if (!ok) failRange(value, std::to_string(low), std::to_string(high), where, source);
  return result;
}

double jsonPositive(const nlohmann::json& value, const std::string& where,
                    const std::string& source) {
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0)
    failIn(source, where + ": expected a positive number");
  return value.get<double>();
}

double jsonNonNegative(const nlohmann::json& value, const std::string& where,
                       const std::string& source) {
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
    failIn(source, where + ": expected a number >= 0");
  return value.get<double>();
}

std::uint64_t jsonUnsigned(const nlohmann::json& value, std::uint64_t low, std::uint64_t high,
                           const std::string& where, const std::string& source) {
  bool ok = false;
  std::uint64_t result = 0;
  if (value.is_number_unsigned()) {
    result = value.get<std::uint64_t>();
    ok = true;
  } else if (value.is_number_integer() && value.get<std::int64_t>() >= 0) {
    result = static_cast<std::uint64_t>(value.get<std::int64_t>());
    ok = true;
  }
  if (!ok || result < low || result > high)
    failRange(value, std::to_string(low), std::to_string(high), where, source);
  return result;
}

void checkFields(const nlohmann::json& object, const std::vector<std::string>& known,
                 const std::string& where, const std::string& source) {
  if (!object.is_object()) return;
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string list;
    for (const std::string& name : known) list += (list.empty() ? "" : ", ") + name;
    failIn(source, (where.empty() ? "" : where + ".") + key + ": unknown field" +
                       didYouMean(key, known) + "; known: " + list);
  }
}

}  // namespace tac3map
