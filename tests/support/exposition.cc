#include "exposition.h"

#include <sstream>
#include <stdexcept>

namespace ovn_raft::testing {

Exposition::Exposition(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    Sample s;
    std::size_t i = line.find_first_of("{ ");
    s.name = line.substr(0, i);
    if (i != std::string::npos && line[i] == '{') {
      ++i;
      while (line[i] != '}') {
        const auto eq = line.find('=', i);
        const std::string key = line.substr(i, eq - i);
        std::string value;
        std::size_t j = eq + 2;  // past ="
        for (; line[j] != '"'; ++j) {
          if (line[j] == '\\') ++j;
          value += line[j];
        }
        s.labels[key] = value;
        i = j + 1;
        if (line[i] == ',') ++i;
      }
      ++i;
    }
    s.value = std::stod(line.substr(i + 1));
    samples_.push_back(std::move(s));
  }
}

std::vector<Sample> Exposition::All(const std::string& name,
                                    const std::map<std::string, std::string>& subset) const {
  std::vector<Sample> out;
  for (const auto& s : samples_) {
    if (s.name != name) continue;
    bool match = true;
    for (const auto& [k, v] : subset) {
      const auto it = s.labels.find(k);
      if (it == s.labels.end() || it->second != v) match = false;
    }
    if (match) out.push_back(s);
  }
  return out;
}

std::optional<double> Exposition::Value(const std::string& name,
                                        const std::map<std::string, std::string>& subset) const {
  const auto all = All(name, subset);
  if (all.empty()) return std::nullopt;
  return all.front().value;
}

std::string Exposition::Label(const std::string& name, const std::string& label,
                              const std::map<std::string, std::string>& subset) const {
  const auto all = All(name, subset);
  if (all.empty()) return "";
  const auto it = all.front().labels.find(label);
  return it == all.front().labels.end() ? "" : it->second;
}

}  // namespace ovn_raft::testing
