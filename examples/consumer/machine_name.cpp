// The one-file way in, without CMake: reads a machine file through the installed library and
// prints its name and size. Build: c++ -std=c++20 machine_name.cpp $(pkg-config --cflags
// --libs tac3map) (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig for a prefix pkg-config does not
// search). Usage: machine-name MACHINE.json
#include <exception>
#include <iostream>

#include "tac3map/network/machine.hpp"
#include "tac3map/version.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: machine-name MACHINE.json\n";
    return 2;
  }
  try {
    const tac3map::Machine machine = tac3map::loadMachine(argv[1]);
    std::cout << machine.name << " " << machine.shapeText() << " (tac3map " << TAC3MAP_VERSION
              << ")\n";
  } catch (const std::exception& e) {
    std::cerr << "machine-name: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
