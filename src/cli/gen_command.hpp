// tac3map gen: synthetic traces (CG, stencils, all-to-all, random patterns, partitioned meshes;
// docs/gen.md).
#pragma once

#include <string>

#include "common_options.hpp"
#include "tac3map/gen/cg_pattern.hpp"
#include "tac3map/gen/mesh_pattern.hpp"
#include "tac3map/gen/patterns.hpp"

namespace tac3map::cli {

// The generators' options bind straight to the library's option structs; only fields given
// as text on the command line (variants, extents) pass through a string.
struct GenCgOptions {
  CgOptions pattern;
  std::string variant = "sendrecv";
  std::string output;  // empty: standard output
};

struct GenStencilOptions {
  StencilOptions pattern;
  std::string dims = "8x8x8";
  std::string variant = "isend";
  std::string output;
};

struct GenAlltoallOptions {
  AlltoallOptions pattern;
  std::string variant = "sendrecv";
  std::string output;
};

struct GenRandomOptions {
  RandomPatternOptions pattern;
  std::string output;
};

struct GenMeshOptions {
  MeshPatternOptions pattern;
  std::string variant = "sendrecv";
  std::string output;
};

// `gen` with its generators: cg, stencil, alltoall, random, mesh.
Command addGenCommand(CLI::App& app, Deprecations& deprecated);
int runGenCg(const GenCgOptions& options);
int runGenStencil(const GenStencilOptions& options);
int runGenAlltoall(const GenAlltoallOptions& options);
int runGenRandom(const GenRandomOptions& options);
int runGenMesh(const GenMeshOptions& options);

}  // namespace tac3map::cli
