// The shape the file loaders accept, as data: the keys each table allows
// and the words each word-valued field takes. The loaders export their own
// lists through these (ScenarioKeyTables() and friends), so that tools which
// must agree with them, the JSON Schemas of scenarios/schema/ and the test
// that compares the two, read the loader's lists instead of a copy.
//
// A path names a place in a file, dotted: "" is the top level, "relay" the
// [relay] table, "groups[]" every element of the array `groups`,
// "groups[].strategy" the table a group's strategy may be, "tables.*" every
// entry of the table `tables`, "check.must_fire[]" every element of that
// array.

#ifndef OUTBOX_CHECK_SCENARIOS_KEY_TABLES_H_
#define OUTBOX_CHECK_SCENARIOS_KEY_TABLES_H_

#include <string>
#include <string_view>
#include <vector>

namespace oc {

// The keys one table allows.
struct KeyTable {
  std::string path;
  // In the order the format lists them; static storage, valid for the
  // program's lifetime.
  std::vector<std::string_view> keys;
  // Whether keys beyond `keys` are allowed too (an event's attributes of its
  // own); otherwise the loader rejects every other key.
  bool open = false;
};

// The words a string field takes; any other word is rejected.
struct WordList {
  std::string path;
  std::vector<std::string> words;  // in the order the loader lists them
};

}  // namespace oc

#endif  // OUTBOX_CHECK_SCENARIOS_KEY_TABLES_H_
