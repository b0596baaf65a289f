// `tac3map viz` end to end: SVG panels, graph machines, PNG output, detail levels and bad
// mappings.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/cli_fixture.hpp"
#include "tac3map/output/viz.hpp"

namespace tac3map {
namespace {

TEST_F(Cli, VizWritesAnSvgWithOnePanelPerCcsAndMapping) {
  const Outcome r = run("viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 +
                        " tofu-default --compare identity -o " + out("m.svg"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string svg = slurp(out("m.svg"));
  ASSERT_EQ(svg.rfind("<?xml", 0), 0u);
  std::size_t panels = 0;
  for (std::size_t at = svg.find("class=\"panel\""); at != std::string::npos;
       at = svg.find("class=\"panel\"", at + 1))
    ++panels;
  EXPECT_EQ(panels, 2u * (4 + 1));  // two mappings x (4 CCS + all)
  EXPECT_NE(svg.find("tofu-default - CCS 3"), std::string::npos);
  EXPECT_NE(svg.find("identity - all CCSs"), std::string::npos);
  // --aggregate-only: one panel per mapping.
  ASSERT_EQ(run("viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 +
                " identity --aggregate-only -o " + out("a.svg"))
                .exitCode,
            0);
  const std::string one = slurp(out("a.svg"));
  EXPECT_EQ(one.find("class=\"panel\""), one.rfind("class=\"panel\""));
}

// A graph machine (here a fat-tree of 16 compute nodes) is drawn layered: compute nodes as
// the node rects of the torus picture, switches above them.
TEST_F(Cli, VizDrawsAGraphMachine) {
  const std::string machine = (dir_ / "ft.json").string(), trace = (dir_ / "cg16.trace").string();
  ASSERT_EQ(run("topology fat-tree --k 4 --levels 2 -o " + machine).exitCode, 0);
  ASSERT_EQ(run("gen cg --ranks 16 -o " + trace).exitCode, 0);
  const Outcome r = run("viz --machine " + machine + " --trace " + trace +
                        " identity --compare random:3 -o " + out("g.svg"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + out("g.svg")), std::string::npos) << r.out;
  const std::string svg = slurp(out("g.svg"));
  ASSERT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("fat-tree 16 compute nodes"), std::string::npos);
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) ++n;
    return n;
  };
  const std::size_t panels = count("class=\"panel\"");
  EXPECT_GE(panels, 4u);                                  // two mappings x (CCSs + all)
  EXPECT_EQ(count("<rect class=\"node\""), 16 * panels);  // every compute node in every panel
  EXPECT_EQ(count("<circle class=\"switch\""), 8 * panels);
  EXPECT_GT(count("<path class=\"link\""), 0u);
  EXPECT_NE(svg.find("s0.0-&gt;c"), std::string::npos);  // links named after the graph's nodes
  fs::remove(out("g.svg"));
  expectCleanFailure(
      "viz --machine " + machine + " --shape 16 --trace " + trace + " identity -o " + out("x.svg"),
      "is a graph machine");
}

// -o picks the format by extension: .png through rsvg-convert (a real PNG, never SVG under a
// PNG name), refused with exit 3 and no file when rsvg-convert is not on the PATH; any other
// extension is refused (exit 3, the option value's error class) before any work.
TEST_F(Cli, VizWritesPngThroughRsvgConvertOrRefuses) {
  const std::string job = "viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " identity";
  const Outcome pdf = run(job + " -o " + out("m.pdf"));
  EXPECT_EQ(pdf.exitCode, 3);
  expectCleanFailure(job + " -o " + out("m.pdf"), "expected a file name ending in .svg or .png");
  // No rsvg-convert: the binary is run by its full path with an empty PATH.
  const Outcome missing = runShell("PATH=/nonexistent " + std::string(TAC3MAP_BINARY) + " " + job +
                                   " -o " + out("m.png"));
  EXPECT_EQ(missing.exitCode, 3) << missing.err;
  EXPECT_NE(missing.err.find("PNG output needs rsvg-convert"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("librsvg2-bin"), std::string::npos) << missing.err;
  EXPECT_TRUE(outputEmpty());
  if (findRsvgConvert().empty()) GTEST_SKIP() << "rsvg-convert is not installed";
  const Outcome r = run(job + " -o " + out("m.PNG"));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::string png = slurp(out("m.PNG"));
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "out"), fs::directory_iterator()), 1);
}

// --detail forces a level; on 1,152 nodes auto colours nodes and shows only the "all" panel.
TEST_F(Cli, VizDetailLevelsAndPlane) {
  const std::string trace = (dir_ / "s.trace").string();
  ASSERT_EQ(run("gen stencil --dims 12x12x8 --points 7 -o " + trace).exitCode, 0);
  const std::string k =
      "viz --machine topologies/k-computer.json --shape 4x4x6x2x3x2 --trace " + trace + " identity";
  ASSERT_EQ(run(k + " -o " + out("auto.svg")).exitCode, 0);
  const std::string automatic = slurp(out("auto.svg"));
  EXPECT_NE(automatic.find("detail: nodes"), std::string::npos);
  EXPECT_EQ(automatic.find("class=\"panel\""), automatic.rfind("class=\"panel\""));
  EXPECT_NE(automatic.find("data-ccs=\"all\""), std::string::npos);
  EXPECT_NE(automatic.find("class=\"histograms\""), std::string::npos);
  EXPECT_EQ(automatic.find("<path class=\"link\""), std::string::npos);
  ASSERT_EQ(run(k + " --detail summary -o " + out("summary.svg")).exitCode, 0);
  const std::string summary = slurp(out("summary.svg"));
  EXPECT_NE(summary.find("class=\"plane-summary\""), std::string::npos);
  EXPECT_EQ(summary.find("<rect class=\"node\""), std::string::npos);
  ASSERT_EQ(run("viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " identity --plane X,Y -o " +
                out("xy.svg"))
                .exitCode,
            0);
  EXPECT_NE(slurp(out("xy.svg")).find("slice plane X x Y"), std::string::npos);
  fs::remove_all(dir_ / "out");
  fs::create_directory(dir_ / "out");
  EXPECT_EQ(run(k + " --detail most -o " + out("x.svg")).exitCode, 2);  // usage (CLI11)
  expectCleanFailure(k + " --detail most -o " + out("x.svg"),
                     "--detail: 'most': expected auto, links, nodes or summary");
  expectCleanFailure(k + " --plane X,W -o " + out("x.svg"), "--plane 'X,W': 'W' is not an axis");
}

TEST_F(Cli, VizRejectsABadMappingWithoutWriting) {
  const std::string bad = file("bad.map", "# tac3map mapping 1\n0 0 0 0 0 0 0\n");
  expectCleanFailure(
      "viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " " + bad + " -o " + out("m.svg"),
      "bad.map");
  expectCleanFailure(
      "viz " + kFx10 + " --shape 2x2x2x2x3x2 " + kCg64 + " random:x -o " + out("m.svg"),
      "random:SEED");
}

}  // namespace
}  // namespace tac3map
