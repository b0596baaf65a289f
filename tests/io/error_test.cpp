// Settings named inside an InputError (io/error.hpp): what() reads their words, as a program
// that embeds the library sees them; rendered() names each as its caller does (the command
// line: by its option); a message that quotes another keeps them.
#include "tac3map/io/error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>

namespace tac3map {
namespace {

// As cli/usage.cpp's optionOf names most settings.
std::string asOption(const std::string& words) {
  std::string option = "--" + words;
  std::replace(option.begin(), option.end(), ' ', '-');
  return option;
}

bool printable(const std::string& text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isprint(static_cast<unsigned char>(c)) != 0; });
}

TEST(InputError, WhatReadsASettingsWordsRenderedNamesItAsTheCallerDoes) {
  const InputError e("openmpi-rankfile: " + settingName("cores per node") + " 2 is less than " +
                     settingName("ranks per node") + " 3");
  EXPECT_EQ(std::string(e.what()),
            "openmpi-rankfile: cores per node 2 is less than ranks per node 3");
  EXPECT_EQ(e.rendered(asOption),
            "openmpi-rankfile: --cores-per-node 2 is less than --ranks-per-node 3");
  EXPECT_TRUE(printable(e.what()));
  // A message without settings reads the same either way.
  const InputError plain("a.trace:3: rank 9 is outside 0..3");
  EXPECT_EQ(plain.rendered(asOption), plain.what());
}

TEST(InputError, ASettingErrorStartsWithItsSetting) {
  try {
    throw SettingError("initial temperature", " must be positive");
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "initial temperature must be positive");
    EXPECT_EQ(e.rendered([](const std::string& words) {
      return words == "initial temperature" ? "--t0" : asOption(words);
    }),
              "--t0 must be positive");
  }
}

TEST(InputError, AMessageThatQuotesAnotherKeepsItsSettings) {
  try {
    failIn("a.map", settingName("shape") + " 2x2: expected 6 values");
    FAIL() << "failIn returned";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "a.map: shape 2x2: expected 6 values");
    const InputError quoted("--init a.map: " + e.message());
    EXPECT_EQ(std::string(quoted.what()), "--init a.map: a.map: shape 2x2: expected 6 values");
    EXPECT_EQ(quoted.rendered(asOption), "--init a.map: a.map: --shape 2x2: expected 6 values");
    // Quoting what() leaves the words: the setting is no name any more.
    EXPECT_EQ(InputError(std::string("x: ") + e.what()).rendered(asOption),
              "x: a.map: shape 2x2: expected 6 values");
  }
}

TEST(InputError, ALongMessageCutThroughASettingShowsNoMarker) {
  // Cut at 186 characters: in the middle of the first setting's words; the last one is kept
  // whole in the end that is kept.
  const std::string filler(180, '.');
  const InputError e(filler + settingName("cores per node") + " 2" + std::string(300, '.') +
                     " is less than " + settingName("ranks per node") + " 3");
  const std::string shown = e.rendered(asOption);
  EXPECT_LE(shown.size(), kMaxErrorLength);
  EXPECT_TRUE(printable(shown)) << shown;
  EXPECT_TRUE(printable(e.what())) << e.what();
  EXPECT_EQ(shown.substr(0, 186), filler + "cores ");
  EXPECT_NE(shown.find("characters left out"), std::string::npos) << shown;
  const std::string end = "than --ranks-per-node 3";
  EXPECT_EQ(shown.substr(shown.size() - end.size()), end) << shown;
}

}  // namespace
}  // namespace tac3map
