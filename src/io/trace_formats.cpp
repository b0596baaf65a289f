#include "tac3map/io/trace_formats.hpp"

// The trace formats: which one a path holds (detectTraceFormat) and the one entry point that
// reads any of them (readAnyTrace). The readers: trace.cpp (native), simgrid_ti_reader.cpp,
// dumpi_reader.cpp; what they share: trace_reading.hpp.
#include <filesystem>
#include <string>
#include <vector>

#include "tac3map/io/error.hpp"
#include "trace_reading.hpp"

namespace tac3map {
namespace {

namespace fs = std::filesystem;
using reading::dumpiFolderFiles;
using reading::forEachLine;
using reading::indexEntries;
using reading::mentions;
using reading::readDumpi;
using reading::readSimgrid;

bool hasMessages(const Trace& trace) {
  for (int rank = 0; rank < trace.ranks; ++rank)
    for (const Event& e : trace.events[rank]) {
      if ((e.kind == EventKind::Send || e.kind == EventKind::Isend) && e.peer != rank) return true;
      if (e.kind == EventKind::Sendrecv && (e.peer != rank || e.peer2 != rank)) return true;
      if (e.kind == EventKind::Collective && e.op != CollectiveOp::Barrier) {
        const auto comm = trace.comms.find(trace.commOf(e));
        const std::size_t members =
            comm == trace.comms.end() ? static_cast<std::size_t>(trace.ranks) : comm->second.size();
        if (members > 1) return true;
      }
    }
  return false;
}

}  // namespace

const EnumNames<TraceFormat>& traceFormatNames() {
  static const EnumNames<TraceFormat> names(
      "trace format", {{TraceFormat::Auto, "auto", "(recognised from the file)"},
                       {TraceFormat::Native, "native", ""},
                       {TraceFormat::SimgridTi, "simgrid-ti", ""},
                       {TraceFormat::Dumpi, "dumpi", ""}});
  return names;
}

TraceFormat parseTraceFormat(const std::string& name) {
  return traceFormatNames().parse(name);
}

const char* traceFormatName(TraceFormat format) {
  return traceFormatNames().name(format).c_str();
}

TraceFormat detectTraceFormat(const std::string& path) {
  std::error_code error;
  if (fs::is_directory(path, error)) return TraceFormat::Dumpi;  // only DUMPI comes as a folder
  bool native = false;
  forEachLine(path, [&](const std::string& line, std::size_t) {
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') return true;
    native = line.compare(first, 13, "tac3map-trace") == 0;
    return false;
  });
  if (native) return TraceFormat::Native;
  const std::vector<std::string> files = indexEntries(path);
  const std::string& sample = files.empty() ? path : files.front();
  return mentions(sample, " entering at walltime") ? TraceFormat::Dumpi : TraceFormat::SimgridTi;
}

Trace readAnyTrace(const std::string& path, TraceFormat format, const TraceOptions& options) {
  if (format == TraceFormat::Auto) format = detectTraceFormat(path);
  std::error_code error;
  const bool folder = fs::is_directory(path, error);
  if (folder && format != TraceFormat::Dumpi)
    failIn(path, std::string("is a folder: a ")
                     .append(traceFormatName(format))
                     .append(" trace is a file (or an index file listing one file per rank); "
                             "only DUMPI traces are read from a folder"));
  Trace trace;
  if (format == TraceFormat::Native) {
    trace = readTrace(path, options);
  } else {
    std::vector<std::string> files = folder ? dumpiFolderFiles(path) : indexEntries(path);
    if (files.empty()) files = {path};
    if (format == TraceFormat::Dumpi) {
      options.ranks.checkCount(static_cast<long long>(files.size()), path, 0);  // a file a rank
      trace = readDumpi(path, files, options);
    } else {
      if (options.iteration != 1)
        failIn(path, settingName("iteration") +
                         ": SimGrid time-independent traces have no iteration markers");
      trace = readSimgrid(path, files, options.ranks);
    }
  }
  if (!options.allowEmpty && !hasMessages(trace))
    failIn(path, options.iteration == 1
                     ? "the trace has no messages between ranks; pass " +
                           settingName("allow empty") + " to accept it"
                     : std::string("iteration ")
                           .append(std::to_string(options.iteration))
                           .append(" of the trace has no messages between ranks; pass ")
                           .append(settingName("allow empty"))
                           .append(" to accept it"));
  return trace;
}

}  // namespace tac3map
