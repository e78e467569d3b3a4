#include "cli/flags.h"

#include <cctype>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

namespace ovn_raft {

std::optional<std::string> ProcessEnv(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  return v ? std::optional<std::string>(v) : std::nullopt;
}

std::string EnvName(const std::string& prefix, const std::string& name) {
  std::string out = prefix;
  for (char c : name) out += (c == '.' || c == '-') ? '_' : static_cast<char>(std::toupper(c));
  return out;
}

namespace {

using Spellings = std::map<std::string, const FlagSpec*>;  // every spelling -> its flag

// A switch's value as "true" or "false"; nothing for anything else.
std::optional<std::string> Switch(const std::string& value) {
  if (value == "true" || value == "1") return "true";
  if (value == "false" || value == "0") return "false";
  return std::nullopt;
}

// The flags of the command line, in order, into `given` (and its other arguments into
// out.positional); false when parsing stops: --help, --version or an error, said in `out`.
bool ReadCommandLine(const Spellings& by_name, const std::vector<std::string>& args,
                     bool positional, ParsedFlags& out, std::vector<FlagValue>& given) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      out.help = true;
      return false;
    }
    if (arg == "--version") {
      out.version = true;
      return false;
    }
    if (arg.rfind("--", 0) != 0) {
      if (!positional) {
        out.error = "unexpected argument \"" + arg + "\"";
        return false;
      }
      out.positional.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2), value;
    const auto eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    auto it = by_name.find(name);
    if (it == by_name.end() && eq == std::string::npos && name.rfind("no-", 0) == 0) {
      const auto negated = by_name.find(name.substr(3));
      if (negated != by_name.end() && negated->second->boolean) {
        it = negated;
        name = name.substr(3);
        value = "false";
      }
    }
    if (it == by_name.end()) {
      out.error = "unknown flag --" + name;
      return false;
    }
    if (it->second->boolean) {
      if (eq == std::string::npos && value.empty()) value = "true";
      const auto normalized = Switch(value);
      if (!normalized) {
        out.error = "flag --" + name + " is true or false, got \"" + value + "\"";
        return false;
      }
      value = *normalized;
    } else if (eq == std::string::npos) {
      if (i + 1 >= args.size()) {
        out.error = "flag --" + name + " needs a value";
        return false;
      }
      value = args[++i];
    }
    if (name != it->second->name) {
      out.warnings.push_back("--" + name + " is deprecated, use --" + it->second->name);
    }
    given.push_back({it->second->name, value, "--" + it->second->name});
  }
  return true;
}

// The value of flag `s` from the environment, under its name or an old one, into out.values
// (a repeatable flag's ';'-separated entries one by one).
void ReadEnvironment(const FlagSpec& s, const EnvLookup& env, const std::string& env_prefix,
                     ParsedFlags& out) {
  std::string var = EnvName(env_prefix, s.name);
  auto value = env(var);
  for (std::size_t i = 0; (!value || value->empty()) && i < s.deprecated.size(); ++i) {
    const std::string old = EnvName(env_prefix, s.deprecated[i]);
    value = env(old);
    if (value && !value->empty()) {
      out.warnings.push_back(old + " is deprecated, use " + var);
      var = old;
    }
  }
  if (!value || value->empty()) return;
  if (s.boolean) {
    const auto normalized = Switch(*value);
    if (!normalized) {
      out.error = var + " is true or false, got \"" + *value + "\"";
      return;
    }
    out.values.push_back({s.name, *normalized, var});
    return;
  }
  if (!s.repeatable) {
    out.values.push_back({s.name, *value, var});
    return;
  }
  std::istringstream entries(*value);
  for (std::string entry; std::getline(entries, entry, ';');) {
    if (!entry.empty()) out.values.push_back({s.name, entry, var});
  }
}

}  // namespace

ParsedFlags ParseFlags(const std::vector<FlagSpec>& specs, const std::vector<std::string>& args,
                       const EnvLookup& env, const std::string& env_prefix, bool positional) {
  ParsedFlags out;
  Spellings by_name;
  for (const auto& s : specs) {
    by_name[s.name] = &s;
    for (const auto& old : s.deprecated) by_name[old] = &s;
  }
  // The command line first, so that the environment only fills what it left unset.
  std::vector<FlagValue> given;
  if (!ReadCommandLine(by_name, args, positional, out, given)) return out;
  std::set<std::string> on_command_line;
  for (const auto& g : given) on_command_line.insert(g.name);
  for (const auto& s : specs) {
    if (!on_command_line.count(s.name)) ReadEnvironment(s, env, env_prefix, out);
    if (out.error) return out;
  }
  for (auto& g : given) out.values.push_back(std::move(g));
  return out;
}

std::string FlagsUsage(const std::vector<FlagSpec>& specs, const std::string& env_prefix) {
  std::ostringstream out;
  for (const auto& f : specs) {
    out << "  --" << f.name << (f.boolean ? "" : "=VALUE") << "  [" << EnvName(env_prefix, f.name)
        << "]\n      " << f.help;
    if (!f.default_text.empty()) out << " (default " << f.default_text << ")";
    out << "\n";
    if (!f.deprecated.empty()) {
      out << "      (formerly";
      for (const auto& old : f.deprecated) out << " --" << old;
      out << ", still accepted)\n";
    }
  }
  out << "  --help, --version\n";
  return out.str();
}

}  // namespace ovn_raft
