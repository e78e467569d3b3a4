#pragma once

// Command-line flags in the style of the official Prometheus exporters: --name=value or
// --name value, each also read from an environment variable (PREFIX + the name upper-cased,
// '.' and '-' as '_'); the command line wins over the environment. A flag's old spellings are
// still accepted, with a deprecation warning. Pure: the environment is a lookup function.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ovn_raft {

struct FlagSpec {
  std::string name;  // e.g. "ovsdb.timeout"
  std::string help;
  std::vector<std::string> deprecated = {};  // old names, e.g. "timeout"
  bool repeatable = false;        // every occurrence kept; its variable holds ';'-separated entries
  std::string default_text = {};  // what --help and the README say it defaults to
  // A switch, as kingpin's bool flags: --name is true, --no-name and --name=false false; its
  // value is always "true" or "false" (its variable takes true, false, 1 or 0).
  bool boolean = false;
};

struct FlagValue {
  std::string name;  // the current name, whatever spelling was used
  std::string value;
  std::string where;  // "--ovsdb.timeout" or "OVN_RAFT_EXPORTER_OVSDB_TIMEOUT", for errors
};

struct ParsedFlags {
  std::vector<FlagValue> values;  // the environment's first, then the command line's, in order
  std::vector<std::string> positional;
  std::vector<std::string> warnings;  // deprecated spellings used
  std::optional<std::string> error;   // an unknown flag, a missing value, a stray argument
  bool help = false;
  bool version = false;
};

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// The process' environment.
std::optional<std::string> ProcessEnv(const std::string& name);

// The variable of flag `name`: EnvName("OVN_RAFT_EXPORTER_", "log.level") is
// OVN_RAFT_EXPORTER_LOG_LEVEL.
std::string EnvName(const std::string& prefix, const std::string& name);

// `positional`: whether arguments that are not flags are allowed (else an error).
ParsedFlags ParseFlags(const std::vector<FlagSpec>& specs, const std::vector<std::string>& args,
                       const EnvLookup& env, const std::string& env_prefix, bool positional);

// The flags' part of --help: each flag, its variable and its help.
std::string FlagsUsage(const std::vector<FlagSpec>& specs, const std::string& env_prefix);

}  // namespace ovn_raft
