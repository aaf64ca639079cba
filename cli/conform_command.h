// `outbox-check conform`: replay scenarios against a real PostgreSQL and
// compare its durable rows with the model's state after every step (see
// conform/README.md).

#ifndef OUTBOX_CHECK_CLI_CONFORM_COMMAND_H_
#define OUTBOX_CHECK_CLI_CONFORM_COMMAND_H_

#include <cstdio>
#include <string>
#include <vector>

namespace oc {

// The flags of `conform`; each default is the flag's default.
struct ConformFlags {
  std::vector<std::string> paths;  // scenario files or folders
  std::string postgres;            // libpq connection string (required)
  int further_paths = 8;           // --paths: explored paths per scenario
  // A schema the run creates, works in and drops, once per path; it must
  // not exist beforehand.
  std::string schema = "outbox_check_conform";
};

// Runs the command. Exit codes: 0 every step of every path agrees; 1 a
// divergence (reported on `out`); 2 bad input or usage, including a
// database that cannot be reached, a role without the right to create a
// schema, a schema already in the way, or one kept because objects outside
// it depend on it (said on `err`); 3 interrupted by SIGINT or SIGTERM,
// which stop the run before its next path, the schema dropped.
int RunConform(const ConformFlags& flags, std::FILE* out, std::FILE* err);

}  // namespace oc

#endif  // OUTBOX_CHECK_CLI_CONFORM_COMMAND_H_
