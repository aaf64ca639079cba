// The JSON writer every JSON output shares: layout, quoting, key order.

#include "common/json_writer.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>

namespace oc {
namespace {

TEST_CASE("the JSON writer indents by two spaces and keeps call order") {
  JsonWriter w;
  w.BeginObject();
  w.Key("b").Number(2);
  w.Key("a").BeginArray().String("x").Bool(true).Null().EndArray();
  w.Key("empty").BeginObject().EndObject();
  w.Key("none").BeginArray().EndArray();
  w.EndObject();
  CHECK(w.Finish() ==
        "{\n"
        "  \"b\": 2,\n"
        "  \"a\": [\n"
        "    \"x\",\n"
        "    true,\n"
        "    null\n"
        "  ],\n"
        "  \"empty\": {},\n"
        "  \"none\": []\n"
        "}\n");
}

TEST_CASE("the JSON writer quotes keys and strings and writes optionals") {
  JsonWriter w;
  w.BeginObject();
  w.Key("k\"\n").String("v\\\x01");
  w.Key("some").OptionalNumber(std::optional<int>(3));
  w.Key("nothing").OptionalString(std::nullopt);
  w.Key("seconds").Seconds(0.5);
  w.EndObject();
  CHECK(w.Finish() ==
        "{\n"
        "  \"k\\\"\\n\": \"v\\\\\\u0001\",\n"
        "  \"some\": 3,\n"
        "  \"nothing\": null,\n"
        "  \"seconds\": 0.500000\n"
        "}\n");
}

}  // namespace
}  // namespace oc
