#include "parse_errors.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "clearsim/io/suggest.hpp"

namespace clearsim_cli {

namespace {

using cs::did_you_mean;

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
  }
  return names;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// The words CLI11 did not expect, from its message "...not expected: a b c" (in reverse order).
std::vector<std::string> unexpected_words(const std::string& what) {
  const std::size_t colon = what.rfind(": ");
  std::vector<std::string> words;
  if (colon == std::string::npos) return words;
  std::istringstream in(what.substr(colon + 2));
  for (std::string w; in >> w;) words.push_back(w);
  std::reverse(words.begin(), words.end());
  return words;
}

}  // namespace

int report_parse_error(const CLI::App& app, const CLI::ParseError& e, int argc,
                       const char* const* argv) {
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : app.get_subcommands()) sub = s;
  const std::string where = sub ? "clearsim " + sub->get_name() : "clearsim";
  std::string message = e.what();
  // `clearsim rnu model.yaml`: CLI11 says a subcommand is required.
  if (!sub && argc > 1 && argv[1][0] != '-') {
    message = "unknown command '" + std::string(argv[1]) +
              "' (commands: " + joined(command_names(app)) + ")" +
              did_you_mean(argv[1], command_names(app));
  } else if (dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    // An unknown option is named with its closest match; the words after it are most likely
    // its value, so the other words are only named when no option is unknown.
    std::string options, others;
    for (const std::string& w : unexpected_words(e.what())) {
      if (w.size() > 1 && w[0] == '-' && !std::isdigit(static_cast<unsigned char>(w[1]))) {
        const std::string name = w.substr(0, w.find('='));
        options += (options.empty() ? "" : "; ") + ("unknown option '" + name + "'") +
                   did_you_mean(name, option_names(sub ? *sub : app));
      } else {
        others += (others.empty() ? "" : " ") + w;
      }
    }
    message = !options.empty() ? options : "unexpected argument(s) '" + others + "'";
  }
  std::fprintf(stderr, "%s: error: %s\nRun '%s --help' for the options.\n", where.c_str(),
               message.c_str(), where.c_str());
  return 2;
}

}  // namespace clearsim_cli
