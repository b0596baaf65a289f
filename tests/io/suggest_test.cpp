// "Did you mean": distances and the suggestions the command line and sweep specs make.
#include "tac3map/io/suggest.hpp"

#include <gtest/gtest.h>

#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/patterns.hpp"
#include "tac3map/io/enum_names.hpp"
#include "tac3map/io/trace_formats.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/model/model.hpp"
#include "tac3map/model/profile.hpp"
#include "tac3map/output/viz_options.hpp"
#include "tac3map/search/objectives.hpp"
#include "tac3map/search/refiner.hpp"
#include "tac3map/search/schedule.hpp"

namespace tac3map {
namespace {

TEST(Suggest, EditDistanceCountsInsertionsDeletionsReplacementsAndSwaps) {
  EXPECT_EQ(editDistance("", ""), 0);
  EXPECT_EQ(editDistance("", "map"), 3);
  EXPECT_EQ(editDistance("seed", "seeds"), 1);       // insertion
  EXPECT_EQ(editDistance("seeds", "seed"), 1);       // deletion
  EXPECT_EQ(editDistance("--shape", "--shope"), 1);  // replacement
  EXPECT_EQ(editDistance("mpa", "map"), 1);          // neighbours swapped
  EXPECT_EQ(editDistance("kitten", "sitting"), 3);
  EXPECT_EQ(editDistance("score", "sweep"), 4);
}

TEST(Suggest, EditDistanceIsSymmetricAndATriangle) {
  const std::vector<std::string> words{"map",   "score", "sweep",   "predict",
                                       "seeds", "seed",  "--trace", "--trace-format",
                                       "",      "ab",    "ba"};
  for (const std::string& a : words)
    for (const std::string& b : words) {
      EXPECT_EQ(editDistance(a, b), editDistance(b, a)) << a << " " << b;
      EXPECT_EQ(editDistance(a, b) == 0, a == b);
      EXPECT_LE(editDistance(a, b), static_cast<int>(std::max(a.size(), b.size())));
    }
}

TEST(Suggest, SuggestsOnlyNamesThatAreClose) {
  const std::vector<std::string> commands{"map", "score",    "predict", "viz",   "sweep",   "ccs",
                                          "gen", "platform", "convert", "bcast", "topology"};
  EXPECT_EQ(closestName("mpa", commands), "map");
  EXPECT_EQ(closestName("scroe", commands), "score");
  EXPECT_EQ(closestName("predcit", commands), "predict");
  EXPECT_EQ(closestName("topo", commands), "topology");  // the one name it starts
  EXPECT_EQ(closestName("frobnicate", commands), "");
  EXPECT_EQ(closestName("xyz", commands), "");
  EXPECT_EQ(didYouMean("seed", {"traces", "seeds", "schedules"}), " (did you mean 'seeds'?)");
  EXPECT_EQ(didYouMean("colour", {"traces", "seeds"}), "");
}

}  // namespace
}  // namespace tac3map

// enum_names.hpp builds on the suggestions: a table's parse, name and lists.
namespace tac3map {
namespace {

enum class Colour { Red, Green, Blue };

const EnumNames<Colour>& colours() {
  static const EnumNames<Colour> names(
      "colour",
      {{Colour::Red, "red", ""}, {Colour::Green, "green", "(go)"}, {Colour::Blue, "blue", ""}});
  return names;
}

TEST(EnumNames, ParseNameAndListsComeFromOneTable) {
  for (const Colour c : {Colour::Red, Colour::Green, Colour::Blue})
    EXPECT_EQ(colours().parse(colours().name(c)), c);
  EXPECT_EQ(colours().names(), (std::vector<std::string>{"red", "green", "blue"}));
  EXPECT_EQ(colours().help(), "red | green (go) | blue");
  EXPECT_EQ(colours().find("green"), Colour::Green);
  EXPECT_FALSE(colours().find("Green"));
  try {
    colours().parse("gren");
    FAIL() << "a misspelt name parsed";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "colour 'gren': expected red, green or blue (did you mean 'green'?)");
  }
  EXPECT_EQ(notOneOf("blue", colours().names()), "");
  EXPECT_EQ(namesInWords({"a"}), "a");
  EXPECT_EQ(namesInWords({"a", "b"}), "a or b");
}

// Every table of the library reads back each of its names, and the parse functions agree.
template <class E>
void expectRoundTrip(const EnumNames<E>& table) {
  ASSERT_FALSE(table.entries().empty()) << table.what();
  for (const auto& entry : table.entries()) {
    EXPECT_EQ(table.parse(entry.name), entry.value) << table.what();
    EXPECT_EQ(table.name(entry.value), entry.name) << table.what();
  }
  EXPECT_THROW(table.parse("no-such-" + table.what()), InputError);
}

TEST(EnumNames, EveryTableRoundTrips) {
  expectRoundTrip(traceFormatNames());
  expectRoundTrip(overlapNames());
  expectRoundTrip(modelKindNames());
  expectRoundTrip(moveKindNames());
  expectRoundTrip(exchangeStyleNames());
  expectRoundTrip(cgVariantNames());
  expectRoundTrip(mapFormatNames());
  expectRoundTrip(rankfileBindNames());
  expectRoundTrip(vizDetailNames());
  expectRoundTrip(objectiveNames());
  expectRoundTrip(refinerNames());
  for (const auto& e : mapFormatNames().entries())
    EXPECT_EQ(parseMapFormat(mapFormatName(e.value)), e.value);
  for (const auto& e : traceFormatNames().entries())
    EXPECT_EQ(parseTraceFormat(traceFormatName(e.value)), e.value);
  for (const auto& e : objectiveNames().entries())
    EXPECT_EQ(parseObjective(objectiveName(e.value)), e.value);
  // The refiners' table lists every refiner of the registry, and auto.
  EXPECT_EQ(refinerNames().names().size(), refiners().size() + 1);
}

}  // namespace
}  // namespace tac3map
