// The exit status of every tac3map command (docs/errors.md, docs/cli.md). Scripts branch on
// these, so they never change meaning: one table for every command and every error class.
#pragma once

namespace tac3map {

inline constexpr int kExitOk = 0;
// The command ran but some of its work failed, each failure recorded in its output (a sweep
// whose results file has entries with an "error").
inline constexpr int kExitPartial = 1;
// The command line itself is wrong: an unknown command or option, a missing or bad value
// (CLI11's parse errors, whatever their own code).
inline constexpr int kExitUsage = 2;
// An input file is wrong or missing: the message names the file and line or JSON path
// (InputError); also an output path that cannot be written.
inline constexpr int kExitInput = 3;
// The input is valid but beyond tac3map's limits or this machine's memory (LimitError,
// bad_alloc; docs/limits.md).
inline constexpr int kExitResource = 4;
// A bug in tac3map: any other exception.
inline constexpr int kExitInternal = 5;

}  // namespace tac3map
