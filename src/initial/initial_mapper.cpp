#include "tac3map/initial/initial_mapper.hpp"

namespace tac3map {

const std::vector<std::unique_ptr<InitialMapper>>& initialMappers() {
  static const std::vector<std::unique_ptr<InitialMapper>> mappers = [] {
    std::vector<std::unique_ptr<InitialMapper>> list;
    list.push_back(makeBlockMapper());
    list.push_back(makeRoundRobinMapper());
    list.push_back(makeTofuDefaultMapper());
    list.push_back(makeGeometricMapper());
    list.push_back(makeNodeFoldMapper());
    list.push_back(makeLayerFoldMapper());
    list.push_back(makeGraphMapper());
    return list;
  }();
  return mappers;
}

const InitialMapper* findInitialMapper(const std::string& name) {
  for (const auto& mapper : initialMappers())
    if (name == mapper->name()) return mapper.get();
  return nullptr;
}

}  // namespace tac3map
