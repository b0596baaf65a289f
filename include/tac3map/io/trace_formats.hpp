// Traces other tools write, read into the native model (trace.hpp): SimGrid SMPI
// time-independent traces (current and older tag-less syntax) and DUMPI traces as printed by
// dumpi2ascii. `--trace-format auto` recognises the format from the content. docs/trace-formats.md
// gives what is read, how, and what is ignored. Errors name the file and line.
#pragma once

#include <string>

#include "tac3map/io/enum_names.hpp"
#include "tac3map/io/trace.hpp"

namespace tac3map {

enum class TraceFormat { Auto, Native, SimgridTi, Dumpi };

// The names of trace format values (enum_names.hpp): parse, name, --help and choice checks.
const EnumNames<TraceFormat>& traceFormatNames();
TraceFormat parseTraceFormat(const std::string& name);
const char* traceFormatName(TraceFormat format);

// What `path` holds, from its content: a native trace, SimGrid TI (one file with all ranks,
// or an index file listing one file per rank), or DUMPI ascii (an index of per-rank files,
// or one file for rank 0).
TraceFormat detectTraceFormat(const std::string& path);

Trace readAnyTrace(const std::string& path, TraceFormat format, const TraceOptions& options);

}  // namespace tac3map
