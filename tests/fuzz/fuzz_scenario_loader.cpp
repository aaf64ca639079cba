// libFuzzer target: any bytes as a scenario file. The loader must return a
// scenario or an error, never crash, hang or trip a sanitizer. Strategy
// files the input names resolve against the bundled scenarios folder.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scenarios/scenario_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)oc::ParseScenario(text, OC_SOURCE_DIR "/scenarios/fuzzed.toml");
  return 0;
}
