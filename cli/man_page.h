#pragma once

// A program's manual page (roff, man(7) macros) made from the same flag table that --help
// prints, so the two cannot drift apart: the package build writes it with the programs' hidden
// --help-man, and a test compares the flags of both.

#include <string>
#include <utility>
#include <vector>

#include "cli/flags.h"

namespace ovn_raft {

// A term and what it means: an exit status, a signal, an environment variable.
struct ManEntry {
  std::string term;
  std::string text;
};

struct ManPage {
  std::string program;                       // e.g. ovn-raft-exporter
  std::string summary;                       // the NAME line after the dash
  std::vector<std::string> synopsis;         // one usage line each, without the program's name
  std::vector<std::string> description;      // paragraphs
  std::string version;                       // shown in the footer
  std::vector<ManEntry> exit_statuses = {};  // EXIT STATUS
  std::vector<ManEntry> environment = {};    // ENVIRONMENT, after the flags' variables
  std::vector<ManEntry> signals = {};        // SIGNALS
  // Extra sections: a heading and its paragraphs.
  std::vector<std::pair<std::string, std::vector<std::string>>> sections = {};
};

// The page, in section 1: NAME, SYNOPSIS, DESCRIPTION, OPTIONS (every flag, its variable, its
// default and old spellings, then --help and --version), EXIT STATUS, ENVIRONMENT, SIGNALS,
// then `page.sections`; a section without entries is left out.
std::string RenderManPage(const ManPage& page, const std::vector<FlagSpec>& specs,
                          const std::string& env_prefix);

// The same entries as --help prints them: the heading, then each term and its text indented.
std::string EntriesUsage(const std::string& heading, const std::vector<ManEntry>& entries);

}  // namespace ovn_raft
