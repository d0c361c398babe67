#include "parse_errors.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace clearsim_cli {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// "; did you mean 'X'?" for the closest candidate within a third of the word (at least 2 edits),
// as the model reader suggests keys; empty if none is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, (word.size() + 2) / 3) + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance && d < std::min(word.size(), c.size())) {
      best_distance = d;
      best = c;
    }
  }
  return best.empty() ? "" : "; did you mean '" + best + "'?";
}

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
