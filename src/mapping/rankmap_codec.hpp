// What the mapping-file codecs share (docs/rankmap-formats.md). Each format is one file,
// rankmap_<format>.cpp, with its writer and its reader side by side; rankmap_formats.cpp lists
// them, and the public functions of rankmap.hpp go through that list; the node table
// (node_table.cpp) reads its lines alike. Private to src/mapping.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "tac3map/mapping/mapping.hpp"
#include "tac3map/mapping/rankmap.hpp"
#include "tac3map/network/machine.hpp"

namespace tac3map::mapfile {

// The whole word as an integer (wholeInteger, integer_text.hpp: no '+', no spaces).
bool parseInt(const std::string& word, long long& value);
// `separator`-separated integers in 0..INT_MAX; file:line errors naming `what`.
std::vector<int> parseInts(const std::string& text, char separator, const std::string& source,
                           std::size_t line, const std::string& what);

struct Line {
  std::size_t number;
  std::string text;  // trimmed
};
// The lines that are neither blank nor '#' comments.
std::vector<Line> meaningfulLines(const std::string& text);

// A mapping file as the codecs see it.
struct MapFile {
  std::string path;
  std::string text;
  std::vector<Line> lines;  // meaningfulLines(text)
  int axes = 0;             // the machine's axes, 0 when no machine is given (rankMapRanks)
  // The first meaningful line; "empty mapping file" when there is none.
  const std::string& head() const;
};
MapFile readMapFile(const std::string& path, int axes);

// A node's host name: the table's host=NAME, else on a graph machine the node's name.
const std::string& hostOf(const Machine& machine, const NodeTable* table, int node,
                          const char* format);
// Box nodes by host name: the node table's, or on a graph machine the node names (hostOf's
// rule, so that what writeRankMap writes reads back).
std::map<std::string, int> nodesByHost(const Machine& machine, const NodeTable* table,
                                       const char* format, const std::string& path);
int hostNode(const std::map<std::string, int>& byHost, const std::string& host,
             const std::string& source, std::size_t line);

// The comment tac3map writes first in a rank file and a Cray rank order, saying how the file
// was written: '# tac3map <format> --ranks-per-node K', and for a rank file '[--cores-per-node
// C] [--sockets-per-node S] --bind B' (C when known, S with --bind socket), so that every
// reader decodes the slot lists without being told again. `options` are complete
// (withMachineDefaults).
std::string writtenWith(MapFormat format, const RankMapOptions& options);
// The options of that comment when the file's first line is one, else `fallback`. A rank file
// written before --bind existed has no --bind: it bound by core.
RankMapOptions readWrittenWith(const std::string& text, MapFormat format,
                               const RankMapOptions& fallback, const std::string& source);

// One mapping format: its name (--output-format), how to write it, how to tell a file of it
// and how to read one.
struct Codec {
  MapFormat format;
  const char* name;
  // The file's text, for a mapping writeRankMap has checked (K slots per node, options >= 0).
  std::string (*write)(const Mapping& mapping, const Machine& machine, const Box& box,
                       const NodeTable* table, const RankMapOptions& options);
  // Whether `file` is in this format, asked of the formats in rankmap_formats.cpp's order.
  bool (*recognises)(const MapFile& file);
  Mapping (*read)(const MapFile& file, const Machine& machine, const Box& box, int tasks,
                  const NodeTable* table, const RankMapOptions& options);
  // The ranks the file places (rankMapRanks); nullptr: one per meaningful line.
  int (*ranks)(const MapFile& file);
};

// One per file rankmap_<format>.cpp.
extern const Codec kCoords;
extern const Codec kJson;
extern const Codec kFujitsuVcoord;
extern const Codec kOpenmpiRankfile;
extern const Codec kSlurmHostfile;
extern const Codec kCrayRankOrder;
extern const Codec kBgqMapfile;

}  // namespace tac3map::mapfile
