#include "cli/man_page.h"

#include <cctype>
#include <sstream>

namespace ovn_raft {
namespace {

// Text as roff shows it: backslashes and dashes escaped, no line starting a request.
std::string Roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::string Upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Entries as a roff list: each term in bold, its text below.
void RenderEntries(std::ostringstream& out, const std::vector<ManEntry>& entries) {
  for (const auto& e : entries) {
    out << ".TP\n\\fB" << Roff(e.term) << "\\fR\n" << Roff(e.text) << "\n";
  }
}

}  // namespace

std::string EntriesUsage(const std::string& heading, const std::vector<ManEntry>& entries) {
  if (entries.empty()) return "";
  std::ostringstream out;
  out << "\n" << heading << ":\n";
  for (const auto& e : entries) out << "  " << e.term << "\n      " << e.text << "\n";
  return out.str();
}

std::string RenderManPage(const ManPage& page, const std::vector<FlagSpec>& specs,
                          const std::string& env_prefix) {
  std::ostringstream out;
  out << ".TH " << Upper(page.program) << " 1 \"\" \"" << Roff(page.program) << " "
      << Roff(page.version) << "\" \"User Commands\"\n";
  out << ".SH NAME\n" << Roff(page.program) << " \\- " << Roff(page.summary) << "\n";
  out << ".SH SYNOPSIS\n";
  for (std::size_t i = 0; i < page.synopsis.size(); ++i) {
    if (i) out << ".br\n";
    out << "\\fB" << Roff(page.program) << "\\fR " << Roff(page.synopsis[i]) << "\n";
  }
  out << ".SH DESCRIPTION\n";
  for (std::size_t i = 0; i < page.description.size(); ++i) {
    if (i) out << ".PP\n";
    out << Roff(page.description[i]) << "\n";
  }
  out << ".SH OPTIONS\n";
  for (const auto& f : specs) {
    out << ".TP\n\\fB\\-\\-" << Roff(f.name) << "\\fR" << (f.boolean ? "" : "=\\fIVALUE\\fR")
        << "\n"
        << Roff(f.help);
    out << "\n.br\nEnvironment: \\fB" << Roff(EnvName(env_prefix, f.name)) << "\\fR";
    if (f.repeatable) out << " (entries separated by ';')";
    out << ".";
    if (!f.default_text.empty()) out << " Default: " << Roff(f.default_text) << ".";
    if (!f.deprecated.empty()) {
      out << " Formerly";
      for (std::size_t i = 0; i < f.deprecated.size(); ++i) {
        out << (i ? "," : "") << " \\fB\\-\\-" << Roff(f.deprecated[i]) << "\\fR";
      }
      out << ", still accepted.";
    }
    out << "\n";
  }
  out << ".TP\n\\fB\\-\\-help\\fR\nPrints the flags and exits.\n";
  out << ".TP\n\\fB\\-\\-version\\fR\nPrints the version and exits.\n";
  if (!page.exit_statuses.empty()) {
    out << ".SH \"EXIT STATUS\"\n";
    RenderEntries(out, page.exit_statuses);
  }
  out << ".SH ENVIRONMENT\nEvery flag is also read from the variable shown beside it, \\fB"
      << Roff(env_prefix)
      << "\\fR followed by the flag's name in capitals with dots and dashes as underscores. A "
         "flag on the command line wins over its variable, which wins over the default.\n";
  RenderEntries(out, page.environment);
  if (!page.signals.empty()) {
    out << ".SH SIGNALS\n";
    RenderEntries(out, page.signals);
  }
  for (const auto& [heading, paragraphs] : page.sections) {
    out << ".SH " << Upper(Roff(heading)) << "\n";
    for (std::size_t i = 0; i < paragraphs.size(); ++i) {
      if (i) out << ".PP\n";
      out << Roff(paragraphs[i]) << "\n";
    }
  }
  return out.str();
}

}  // namespace ovn_raft
