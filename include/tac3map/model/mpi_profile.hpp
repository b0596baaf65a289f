// What an MPI library does that the model needs (docs/mpi-profiles.md): below which size it
// sends eagerly, which algorithm it runs each collective with at each size and communicator
// size, and what each message costs its sender in software. A machine file names its MPI
// ("mpi": a profile name, or a profile file beside it; absent: "openmpi"), `--mpi` chooses
// another. The shipped profiles are topologies/mpi/*.json, built into the program.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tac3map/model/collective_algorithms.hpp"

namespace tac3map {

struct MpiProfile {
  std::string name;
  std::string source;       // file it was read from, or "built-in <name>"
  std::string description;
  // Blocking sends (and isends) of fewer bytes are eager: the sender goes on at once
  // (CcsOptions::eagerLimit). 0: every send is rendezvous.
  std::uint64_t eagerLimit = 0;
  // LogP's o: seconds of the sender's software per message, whatever its route (the flow
  // model and predict charge it; tac3 leaves it out, the same for every mapping).
  double messageOverhead = 0;
  // Collectives by size and communicator size (CollectiveAlgorithms::rules).
  std::map<CollectiveOp, std::vector<CollectiveRule>> collectives;
  // SimGrid's selector that runs the same decisions (smpi/coll-selector: "default", "ompi",
  // "mpich", ...): what `tac3map platform` writes into the platform's configuration.
  std::string simgridSelector = "default";
};

// The names of the built-in profiles, in order.
std::vector<std::string> mpiProfileNames();
// A built-in profile by name, else a profile file (a path, relative to `relativeTo`'s folder
// when not absolute: a machine file names one beside itself). InputError naming the name and
// the built-in ones, or the file and JSON path of a wrong field.
MpiProfile loadMpiProfile(const std::string& nameOrPath, const std::string& relativeTo = "");
MpiProfile parseMpiProfile(const std::string& text, const std::string& source);

}  // namespace tac3map
