// What the DUMPI reader's files share (dumpi_reader.cpp reads the calls,
// dumpi_communicators.cpp the communicators they make). Private to src/io.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tac3map/io/trace.hpp"
#include "trace_reading.hpp"

namespace tac3map::reading {

// One call as dumpi2ascii prints it: its name, the line of its 'entering' line, and its
// arguments by name ("count" -> "1000", "datatype" -> "MPI_DOUBLE").
struct DumpiCall {
  std::string name;  // "MPI_Send"
  std::size_t line = 0;
  std::map<std::string, std::string> args;
};

// "[1, 2]" (dumpi2ascii) or "[2]{1, 2}" -> {1, 2}; "<IGNORED>" -> {}.
std::vector<long long> braceList(const Reader& r, const std::string& value);

// A communicator handle as printed: "" for MPI_COMM_WORLD, else its number ("5", "5 (user)").
std::string handleOf(const std::string& value);

// Whether the call makes a communicator (its calls are kept for readCommunicators).
bool makesCommunicator(const std::string& name);

// Per rank, DUMPI handle -> communicator id of Trace::comms ("" = MPI_COMM_WORLD); a handle
// the reader cannot follow maps to "!" + the reason, which names the call.
using CommHandles = std::vector<std::map<std::string, std::string>>;

// The communicators the ranks' calls make (`calls[rank]`: its communicator-making calls in
// program order, with the file each comes from), added to trace.comms.
CommHandles readCommunicators(const std::vector<std::vector<DumpiCall>>& calls,
                              const std::vector<std::string>& files, Trace& trace);

}  // namespace tac3map::reading
