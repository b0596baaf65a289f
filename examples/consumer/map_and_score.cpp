// Maps a trace on a box and scores the result beside identity through the installed library,
// as `tac3map map -o OUT` and `tac3map score ... identity OUT` do: what a launcher or a runtime
// writes to place a job. Usage: map-and-score MACHINE.json SHAPE TRACE OUT.map
#include <iostream>

#include "tac3map/io/atomic_file.hpp"
#include "tac3map/io/number_text.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/pipeline/map_job.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: map-and-score MACHINE.json SHAPE TRACE OUT.map\n";
    return 2;
  }
  try {
    const tac3map::Job job({.machine = argv[1], .shape = argv[2]}, {.trace = argv[3]});
    const tac3map::MapResult result = tac3map::mapJob(job, {});  // tac3, --init auto, seed 1
    tac3map::writeFileAtomically(argv[4], tac3map::writeRankMap(tac3map::MapFormat::Coords,
                                                                result.mapping, job.machine,
                                                                job.box, job.nodeTable()));
    const auto scores = tac3map::scoreJob(job, {job.mapping("identity"), result.mapping});
    for (std::size_t i = 0; i < scores.size(); ++i)
      std::cout << (i == 0 ? "identity" : argv[4]) << " tac3 "
                << tac3map::exactNumber(scores[i].tac3) << " tahb "
                << tac3map::exactNumber(scores[i].tahb) << "\n";
  } catch (const std::exception& e) {
    std::cerr << "map-and-score: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
