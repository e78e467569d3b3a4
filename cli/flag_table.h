#pragma once

// One declaration per flag: its spelling, old spellings, default, help and how it sets a value on
// a program's settings T. --help, the environment variables, the defaults, parsing and the
// README's flag tables (checked by tests/support/readme_flags.h) all come from the one table, so
// a flag cannot be declared and then ignored, and a default cannot be said in two places.

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/flags.h"

namespace ovn_raft {

template <typename T>
struct Flag {
  FlagSpec spec;
  // Set, in order, when the flag is given nowhere: a repeatable flag given once replaces them.
  std::vector<std::string> defaults = {};
  // Sets one value; the error, if any, in words that follow "--name: ".
  std::function<std::optional<std::string>(T&, const std::string&)> set;
};

template <typename T>
struct ParsedSettings {
  std::optional<T> settings;            // absent on error or when help/version was asked
  std::optional<std::string> error;     // an unknown flag, a bad value, a stray argument
  std::vector<std::string> warnings;    // deprecated spellings used
  std::vector<std::string> positional;  // arguments that are not flags, when allowed
  bool help = false;
  bool version = false;
};

// The specs of a table, each showing its default (FlagSpec::default_text, or else its defaults).
template <typename T>
std::vector<FlagSpec> Specs(const std::vector<Flag<T>>& table) {
  std::vector<FlagSpec> specs;
  for (const auto& flag : table) {
    FlagSpec spec = flag.spec;
    for (std::size_t i = 0; spec.default_text.empty() && i < flag.defaults.size(); ++i) {
      spec.default_text += (i ? ", " : "") + flag.defaults[i];
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

// Flags win over environment variables, which win over the table's defaults.
template <typename T>
ParsedSettings<T> ParseSettings(const std::vector<Flag<T>>& table,
                                const std::vector<std::string>& args, const EnvLookup& env,
                                const std::string& env_prefix, bool positional) {
  ParsedSettings<T> out;
  ParsedFlags parsed = ParseFlags(Specs(table), args, env, env_prefix, positional);
  out.help = parsed.help;
  out.version = parsed.version;
  out.warnings = std::move(parsed.warnings);
  out.positional = std::move(parsed.positional);
  if (parsed.help || parsed.version) return out;
  if (parsed.error) {
    out.error = std::move(parsed.error);
    return out;
  }
  T settings{};
  std::set<std::string> given;
  for (const auto& v : parsed.values) {
    given.insert(v.name);
    for (const auto& flag : table) {
      if (flag.spec.name != v.name) continue;
      if (auto error = flag.set(settings, v.value)) {
        out.error = v.where + ": " + *error;
        return out;
      }
    }
  }
  for (const auto& flag : table) {
    if (given.count(flag.spec.name)) continue;
    for (const auto& value : flag.defaults) {
      if (auto error = flag.set(settings, value)) {  // a bug in the table: tests catch it
        out.error = "the default of --" + flag.spec.name + ": " + *error;
        return out;
      }
    }
  }
  out.settings = std::move(settings);
  return out;
}

}  // namespace ovn_raft
