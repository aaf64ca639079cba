// libFuzzer target: any bytes as an invariant definition file (as the
// bundled scenarios/invariants/*.toml), compiled against a config with
// every kind of group and attributed events, then evaluated on the
// model's initial states.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/fuzz_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const oc::fuzz::Fixture& f = oc::fuzz::GetFixture();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const oc::Result<oc::InvariantExpression> x = oc::ParseInvariantDefinition(
      text, "invariants/fuzzed.toml", f.scenario.config);
  if (x.ok()) oc::fuzz::Evaluate(f, x.value());
  return 0;
}
