// libFuzzer target: any bytes as a declared strategy file (the handler
// language's loader and compiler).

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scenarios/strategy_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)oc::ParseStrategyFile(text, "strategies/fuzzed.toml",
                              "strategies/fuzzed.toml");
  return 0;
}
