#include "viz_command.hpp"

#include "report.hpp"
#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/error.hpp"
#include "tac3map/output/viz.hpp"
#include "tac3map/output/viz_options.hpp"
#include "tac3map/pipeline/job.hpp"
#include "tac3map/pipeline/job_context.hpp"

namespace tac3map::cli {

Command addVizCommand(CLI::App& app, Deprecations& deprecated) {
  auto options = std::make_shared<VizOptionsCli>();
  VizOptionsCli& o = *options;
  CLI::App* cmd = app.add_subcommand(
      "viz",
      "draw a mapping (and the links each CCS loads) as SVG or PNG\n  example: tac3map viz "
      "--machine topologies/fx10.json --shape 2x2x2x2x3x2 --trace examples/cg64-sendrecv.trace "
      "cg64.map --compare identity -o cg64.svg");
  addBoxOptions(*cmd, o.box);
  addTraceOptions(*cmd, o.input, &deprecated);
  cmd->add_option("mapping", o.mapping, "mapping file or name (identity, tofu-default, ...)")
      ->required();
  cmd->add_option("--compare", o.compare, "a second mapping, drawn side by side");
  cmd->add_flag("--aggregate-only", o.aggregateOnly,
                "one panel per mapping (largest load per link over the CCSs); automatic "
                "when nodes are aggregated (above 256 nodes) or above 16 CCSs");
  cmd->add_option("--detail", o.detail,
                  vizDetailNames().help() + "; auto: links up to 256 nodes, nodes up to 8192")
      ->check(choiceOf(vizDetailNames()))
      ->capture_default_str();
  cmd->add_option("--plane", o.plane,
                  "the slice plane's two axes, across then down, e.g. X,Y (default: the "
                  "box's two largest)");
  cmd->add_option("--output,-o", o.output,
                  "picture to write: .svg, or .png (drawn by rsvg-convert)")
      ->required();
  cmd->add_flag("--quiet,-q", o.quiet, "print nothing but errors");
  return runWhenParsed(cmd, options, runViz);
}

int runViz(const VizOptionsCli& o) {
  checkOutputPaths({{"-o", o.output}});
  // The picture's format from -o's extension: .svg, or .png through rsvg-convert (checked
  // before any work, so a missing converter never costs a run).
  const std::size_t dot = o.output.rfind('.'), slash = o.output.rfind('/');
  std::string extension = dot == std::string::npos || (slash != std::string::npos && dot < slash)
                              ? ""
                              : o.output.substr(dot);
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension != ".svg" && extension != ".png")
    throw InputError("-o " + o.output + ": expected a file name ending in .svg or .png");
  const bool png = extension == ".png";
  if (png && findRsvgConvert().empty())
    throw InputError("-o " + o.output +
                     ": PNG output needs rsvg-convert, which is not on the PATH (Debian package "
                     "librsvg2-bin); install it or write .svg");
  const VizDetail detail = parseDetail(o.detail);
  const Job job(jobContext(o.box, {o.mapping, o.compare}), o.input, TraceEvents::Release);
  std::vector<VizMapping> mappings;
  for (const std::string& name : {o.mapping, o.compare})
    if (!name.empty()) mappings.push_back({name, job.mapping(name)});
  VizOptions options;
  options.detail = detail;
  if (!o.plane.empty()) options.plane = parsePlane(job.machine, o.plane);
  options.title = job.machine.name + ' ' + job.machine.nodesText(job.box);
  options.title += ", " + o.input.trace + " (" + std::to_string(job.sets.sets.size()) + " CCS)";
  // One panel per CCS where every link is drawn (and at most 16 CCSs); pictures that
  // aggregate nodes aggregate the CCSs too. Pictures of a machine without axes (its graph,
  // renderSvg) draw every link up to 1,500 nodes.
  const bool perCcs = job.machine.whyNoAxes().empty()
                          ? resolveDetail(detail, job.box.nodeCount) == VizDetail::Links
                          : job.box.nodeCount <= 1500;
  options.aggregateOnly = o.aggregateOnly || !perCcs || job.sets.sets.size() > 16;
  const std::string svg =
      renderSvg(job.machine, job.box, job.router, job.problem, mappings, options);
  StagedFile file(o.output, png ? svgToPng(svg) : svg);
  file.commit();
  report(o.quiet) << "wrote " << o.output << "\n";
  return 0;
}

}  // namespace tac3map::cli
