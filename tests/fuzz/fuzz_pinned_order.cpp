// libFuzzer target: any bytes as the steps of a pinned order (one action
// per line, as `order = [...]` holds them), parsed against the fixture's
// config and, while they parse and are enabled, taken on the model.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "model/action.h"
#include "tests/fuzz/fuzz_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const oc::fuzz::Fixture& f = oc::fuzz::GetFixture();
  const oc::OutboxModel& model = *f.model;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  oc::State state = model.InitialStates().front();
  std::vector<std::pair<oc::Action, oc::State>> next;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view()
                                         : rest.substr(end + 1);
    const oc::Result<oc::Action> a = oc::ParseAction(model.config(), line);
    if (!a.ok()) continue;
    next.clear();
    model.Successors(state, next);
    for (const auto& [action, after] : next) {
      if (action == a.value()) {
        state = after;
        break;
      }
    }
  }
  return 0;
}
