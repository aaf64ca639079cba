// libFuzzer target: any bytes as the text of an invariant expression (the
// shared expression core: lexer, parser, type and range checks), compiled
// for each kind and evaluated on the fixture's initial states.

#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/fuzz_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const oc::fuzz::Fixture& f = oc::fuzz::GetFixture();
  for (const oc::InvariantKind kind :
       {oc::InvariantKind::kSafety, oc::InvariantKind::kTransition}) {
    oc::InvariantExpression x;
    x.name = "fuzzed";
    x.kind = kind;
    x.text.assign(reinterpret_cast<const char*>(data), size);
    oc::ExpressionError error;
    if (oc::CompileInvariantExpression(f.scenario.config, x, error)) {
      oc::fuzz::Evaluate(f, x);
    }
  }
  return 0;
}
