#include "score_command.hpp"

#include <iostream>

#include "profile_models.hpp"
#include "score_table.hpp"
#include "tac3map/model/predict.hpp"
#include "tac3map/model/profile.hpp"
#include "tac3map/pipeline/job.hpp"
#include "tac3map/pipeline/job_context.hpp"
#include "tac3map/pipeline/map_job.hpp"

namespace tac3map::cli {

Command addScoreCommand(CLI::App& app, Deprecations& deprecated) {
  auto options = std::make_shared<ScoreOptions>();
  ScoreOptions& o = *options;
  CLI::App* cmd = app.add_subcommand(
      "score",
      "score mappings (files or names) against a trace\n  example: tac3map score --machine "
      "topologies/fx10.json --shape 2x2x2x2x3x2 --trace examples/cg64-sendrecv.trace identity "
      "tofu-default a.map");
  addBoxOptions(*cmd, o.box);
  addTraceOptions(*cmd, o.input, nullptr);
  cmd->add_option("mappings", o.mappings,
                  "mapping files or names: identity, random:SEED, tofu-default")
      ->required();
  cmd->add_option("--output-format,-f", o.format, scoreFormatNames().help())
      ->check(choiceOf(scoreFormatNames()))
      ->capture_default_str();
  deprecated.add(*cmd, "--format", "--output-format", o.format, "old --output-format")
      ->check(choiceOf(scoreFormatNames()));
  cmd->add_flag("--json", o.json, "the same as --output-format json");
  cmd->add_option("--baseline", o.baseline,
                  "the mapping (as given) the ratio columns divide by; default: the first");
  cmd->add_option("--profile", o.profile, "add the predicted time of one iteration (see predict)");
  cmd->add_option("--model", o.model, "with --profile: " + modelKindNames().help())
      ->check(choiceOf(modelKindNames()))
      ->capture_default_str();
  return runWhenParsed(cmd, options, runScore);
}

int runScore(const ScoreOptions& o) {
  const ScoreFormat format = o.json ? ScoreFormat::Json : parseScoreFormat(o.format);
  const int baseline = baselineRow(o.mappings, o.baseline);  // before any work
  // The events are read again only to predict (--profile).
  const Job job(jobContext(o.box, o.mappings), o.input,
                o.profile.empty() ? TraceEvents::Release : TraceEvents::Keep);
  std::vector<Mapping> mappings;
  for (const std::string& name : o.mappings) mappings.push_back(job.mapping(name));
  const std::vector<Scores> scores = scoreJob(job, mappings);
  std::vector<double> predicted;
  if (!o.profile.empty()) {
    const ProfileModels models(o.profile, o.model);
    const PredictModel model = models.with(job.machine, job.model);
    const double localWork = localWorkSeconds(job.trace, models.copy);
    for (const Mapping& mapping : mappings)
      predicted.push_back(
          predict(job.problem, job.router, mapping, model, localWork, &job.timeline()).total);
  }
  printScores(std::cout, "mapping", o.mappings, scores, format, true, predicted, baseline);
  return 0;
}

}  // namespace tac3map::cli
