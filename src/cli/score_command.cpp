#include "score_command.hpp"

#include <iostream>

#include "profile_models.hpp"
#include "score_table.hpp"
#include "tac3map/model/predict.hpp"
#include "tac3map/pipeline/job.hpp"
#include "tac3map/pipeline/job_context.hpp"
#include "tac3map/pipeline/map_job.hpp"

namespace tac3map::cli {

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
