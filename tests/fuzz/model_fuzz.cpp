// Issue 14's fuzz test: mutations of every example model (every *.yaml under examples/*/), each
// checked and run by the command line, which must never crash, hang or write a non-finite value;
// since issue 28 one case in five also runs `gear` or `sweep` with odd arguments (command_case).
//
//   clearsim_model_fuzz --cli <clearsim> --examples <dir> --work <dir> [--seed S] [--first K]
//                       [--count N] [--timeout SECONDS] [--memory-mb MB] [--keep] [--verbose]
//
// Case k is made from the seed and k alone (its own generator), so one case is replayed with
// `--first k --count 1 --keep`, which leaves the mutated model and its output in the work folder.
// Each case is `clearsim check` of the mutated file, then `clearsim run` of it with --end cut to
// a few steps (the run's size is bounded by its step count, not by a clock); the wall-clock
// timeout only guards against a hang and asserts nothing about speed.
//
// A case fails when a process dies by a signal (a crash, an abort, a sanitizer report with
// -fno-sanitize-recover), exits with a code the command line does not use (0 ok, 1 bad input,
// 2 bad usage, 3 failed run), prints a sanitizer report, runs out of memory (bad_alloc under
// --memory-mb: an input asking for gigabytes must be refused), runs past the timeout, or leaves
// a CSV with a value that is not finite.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Options {
  std::string cli, examples, work;
  std::uint64_t seed = 14;
  long first = 0, count = 100;
  double timeout = 60.0;  // [s] a hang guard only
  bool keep = false;
  bool verbose = false;  // a line per case: its exit codes and mutations
  long memory_mb = 0;    // address-space limit of each process (0: none; ASan needs none)
};

struct Model {
  fs::path file;  // under examples/
  std::string text;
};

// --- mutations -----------------------------------------------------------------------------

using Rng = std::mt19937_64;

std::size_t pick(Rng& rng, std::size_t n) {
  return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::ostringstream os;
  for (const auto& l : lines) os << l << '\n';
  return os.str();
}

// The part of a line before its comment (a '#' after a space or at the start, not quoted).
std::size_t code_end(const std::string& line) {
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\'' || line[i] == '"') quoted = !quoted;
    if (!quoted && line[i] == '#' && (i == 0 || line[i - 1] == ' ')) return i;
  }
  return line.size();
}

bool is_code_line(const std::string& line) {
  const std::size_t end = code_end(line);
  return line.find_first_not_of(' ') < end;
}

struct Span {
  std::size_t line, begin, end;
};

// Every number in a value position: after '[', ',', ':', '{', '-' or a space, before ',', ']',
// '}', a space or the end of the code (so not the digits of a name like joint1).
std::vector<Span> numbers(const std::vector<std::string>& lines) {
  static const std::regex number(R"([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)");
  std::vector<Span> out;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const std::string code = lines[l].substr(0, code_end(lines[l]));
    for (auto it = std::sregex_iterator(code.begin(), code.end(), number);
         it != std::sregex_iterator(); ++it) {
      const auto b = static_cast<std::size_t>(it->position()), e = b + it->str().size();
      const bool before_ok = b == 0 || std::string(" [,:{-").find(code[b - 1]) != std::string::npos;
      const bool after_ok =
          e == code.size() || std::string(" ,]}").find(code[e]) != std::string::npos;
      if (before_ok && after_ok) out.push_back({l, b, e});
    }
  }
  return out;
}

// Every scalar value after "key: " on a line (to the comment or the end of the line).
std::vector<Span> scalar_values(const std::vector<std::string>& lines) {
  std::vector<Span> out;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const std::size_t end = code_end(lines[l]);
    for (std::size_t c = lines[l].find(": "); c != std::string::npos && c < end;
         c = lines[l].find(": ", c + 1)) {
      std::size_t b = lines[l].find_first_not_of(' ', c + 1);
      if (b >= end) continue;
      std::size_t e = lines[l].find_first_of(",}", b);
      if (lines[l][b] == '[' || lines[l][b] == '{')
        e = std::min(end, lines[l].find_first_of("]}", b) + 1);
      e = std::min(e, end);
      while (e > b && lines[l][e - 1] == ' ') --e;
      if (e > b) out.push_back({l, b, e});
    }
  }
  return out;
}

std::string format_number(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

// A number scaled by a huge, tiny or negative factor, or replaced by a value at a limit.
std::string mutated_number(Rng& rng, const std::string& original) {
  static const double factors[] = {1e300, 1e-300, -1.0, 0.0, 1e6, 1e-6, 1e12, 1e-12, -1e300};
  static const char* literals[] = {".nan",  ".inf",       "-.inf",       "nan",
                                   "inf",   "1e308",      "-1e308",      "1e-320",
                                   "1e400", "2147483648", "-2147483649", "9223372036854775808",
                                   "0x10",  "1_000",      "0.0"};
  if (pick(rng, 3) == 0) return literals[pick(rng, std::size(literals))];
  return format_number(std::strtod(original.c_str(), nullptr) *
                       factors[pick(rng, std::size(factors))]);
}

struct Mutation {
  std::string text, what;
};

Mutation scale_number(Rng& rng, std::vector<std::string>& lines) {
  const auto spans = numbers(lines);
  if (spans.empty()) return {};
  const Span s = spans[pick(rng, spans.size())];
  std::string& line = lines[s.line];
  const std::string before = line.substr(s.begin, s.end - s.begin);
  const std::string after = mutated_number(rng, before);
  line.replace(s.begin, s.end - s.begin, after);
  return {{}, "line " + std::to_string(s.line + 1) + ": number " + before + " -> " + after};
}

// A key deleted with everything indented under it.
Mutation delete_key(Rng& rng, std::vector<std::string>& lines) {
  std::vector<std::size_t> keys;
  for (std::size_t l = 0; l < lines.size(); ++l)
    if (is_code_line(lines[l]) && lines[l].find(':') < code_end(lines[l])) keys.push_back(l);
  if (keys.empty()) return {};
  const std::size_t l = keys[pick(rng, keys.size())];
  const std::size_t indent = lines[l].find_first_not_of(' ');
  std::size_t e = l + 1;
  while (e < lines.size() && (!is_code_line(lines[e]) || lines[e].find_first_not_of(' ') > indent))
    ++e;
  lines.erase(lines.begin() + static_cast<long>(l), lines.begin() + static_cast<long>(e));
  return {{},
          "line " + std::to_string(l + 1) + ": key deleted (" + std::to_string(e - l) + " lines)"};
}

// A value replaced by one of another type.
Mutation swap_type(Rng& rng, std::vector<std::string>& lines) {
  static const char* values[] = {
      "[1, 2, 3]", "{a: 1}", "text",    "''",           "~",
      "true",      "[]",     "{}",      "[.nan, 0, 0]", "[1e308, 1e308, 1e308]",
      "!!str 1",   "-",      "\"\\0\"", "[[1]]",        "*missing_anchor"};
  const auto spans = scalar_values(lines);
  if (spans.empty()) return {};
  const Span s = spans[pick(rng, spans.size())];
  const std::string v = values[pick(rng, std::size(values))];
  lines[s.line].replace(s.begin, s.end - s.begin, v);
  return {{}, "line " + std::to_string(s.line + 1) + ": value -> " + v};
}

// A value (a name, a number, a word) cut short, or the file cut at a random byte.
Mutation truncate(Rng& rng, std::vector<std::string>& lines) {
  const auto spans = scalar_values(lines);
  if (spans.empty() || pick(rng, 4) == 0) {
    const std::string text = join_lines(lines);
    const std::size_t at = pick(rng, text.size() + 1);
    return {text.substr(0, at), "file cut at byte " + std::to_string(at)};
  }
  const Span s = spans[pick(rng, spans.size())];
  const std::size_t keep = pick(rng, s.end - s.begin);
  lines[s.line].erase(s.begin + keep, s.end - s.begin - keep);
  return {
      {},
      "line " + std::to_string(s.line + 1) + ": value cut to " + std::to_string(keep) + " chars"};
}

// A value replaced by another value of the file (a body name where a number was, a joint name
// where a body was, ...).
Mutation swap_values(Rng& rng, std::vector<std::string>& lines) {
  const auto spans = scalar_values(lines);
  if (spans.size() < 2) return {};
  const Span a = spans[pick(rng, spans.size())], b = spans[pick(rng, spans.size())];
  const std::string v = lines[b.line].substr(b.begin, b.end - b.begin);
  lines[a.line].replace(a.begin, a.end - a.begin, v);
  return {{},
          "line " + std::to_string(a.line + 1) + ": value -> '" + v + "' (line " +
              std::to_string(b.line + 1) + ")"};
}

// A line repeated (a duplicate key), re-indented, or given a stray character.
Mutation damage_line(Rng& rng, std::vector<std::string>& lines) {
  if (lines.empty()) return {};
  const std::size_t l = pick(rng, lines.size());
  static const std::string junk[] = {"\t", "\"", "'",  ":",  "{",
                                     "[",  "&a", "*a", "\r", std::string(1, '\0')};
  switch (pick(rng, 4)) {
    case 0:
      lines.insert(lines.begin() + static_cast<long>(l), lines[l]);
      return {{}, "line " + std::to_string(l + 1) + " repeated"};
    case 1:
      lines[l].insert(0, pick(rng, 2) ? "  " : " ");
      return {{}, "line " + std::to_string(l + 1) + " indented"};
    case 2: {
      const std::size_t at = pick(rng, lines[l].size() + 1);
      const std::size_t j = pick(rng, std::size(junk));
      lines[l].insert(at, junk[j]);
      return {{},
              "line " + std::to_string(l + 1) + ": junk #" + std::to_string(j) + " at " +
                  std::to_string(at)};
    }
    default: {
      const std::size_t c = lines[l].find(':');
      if (c == std::string::npos || c == 0) return {};
      lines[l].erase(c - 1, 1);  // a key misspelt
      return {{}, "line " + std::to_string(l + 1) + ": key misspelt"};
    }
  }
}

// One to three mutations of a model's text; `log` says which (to read a failure).
std::string mutate(Rng& rng, const std::string& text, std::string& log) {
  using Fn = Mutation (*)(Rng&, std::vector<std::string>&);
  // Numbers weigh most: they reach the engine, where the syntax mutations stop at the reader.
  static const Fn fns[] = {scale_number, scale_number, scale_number, scale_number, delete_key,
                           swap_type,    swap_type,    truncate,     swap_values,  damage_line};
  const std::size_t n = 1 + (pick(rng, 10) < 6 ? 0 : pick(rng, 10) < 8 ? 1 : 2);
  std::vector<std::string> lines = split_lines(text);
  for (std::size_t i = 0; i < n; ++i) {
    const Mutation m = fns[pick(rng, std::size(fns))](rng, lines);
    if (m.what.empty()) continue;
    log += (log.empty() ? "" : "; ") + m.what;
    if (m.what.rfind("file cut", 0) == 0) return m.text;  // the last word
  }
  return join_lines(lines);
}

// --- running the command line ------------------------------------------------------------

struct Outcome {
  int code = 0;  // exit code, or -signal
  bool hung = false;
  std::string output;  // stdout and stderr
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// Runs argv with stdout and stderr to `log`; kills it after `timeout` seconds (a hang).
Outcome run_process(const std::vector<std::string>& argv, const fs::path& log, double timeout,
                    long memory_mb) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    if (memory_mb > 0) {
      // A case that asks for tens of gigabytes must fail alone, not take the machine's memory.
      const rlim_t bytes = static_cast<rlim_t>(memory_mb) << 20;
      const rlimit limit{bytes, bytes};
      setrlimit(RLIMIT_AS, &limit);
    }
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  Outcome out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      out.hung = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  out.output = read_file(log);
  return out;
}

// Why an outcome is a failure; empty when it is not.
std::string outcome_problem(const std::string& what, const Outcome& o) {
  std::ostringstream os;
  if (o.hung)
    os << what << " did not end within the timeout (a hang)";
  else if (o.code < 0)
    os << what << " died by signal " << -o.code;
  else if (o.code > 3)
    os << what << " exited with " << o.code << " (the command line uses 0 to 3)";
  else if (o.output.find("Sanitizer") != std::string::npos ||
           o.output.find("runtime error:") != std::string::npos)
    os << what << " printed a sanitizer report";
  else if (o.output.find("terminate called") != std::string::npos)
    os << what << " terminated on an uncaught exception";
  else if (o.output.find("bad_alloc") != std::string::npos ||
           o.output.find("max_size()") != std::string::npos)
    os << what << " ran out of memory: the input that asks for it was not refused";
  return os.str();
}

// The first field of a CSV that is not a finite number, as "row r: 'text'"; empty if none.
std::string non_finite_field(const fs::path& csv) {
  std::ifstream in(csv);
  std::string line;
  // The comment lines (version, units), then the header.
  while (std::getline(in, line) && line.rfind('#', 0) == 0) {
  }
  for (long row = 1; std::getline(in, line); ++row) {
    std::istringstream fields(line);
    for (std::string f; std::getline(fields, f, ',');) {
      char* end = nullptr;
      const double v = std::strtod(f.c_str(), &end);
      if (end == f.c_str() || *end != '\0' || !std::isfinite(v))
        return "row " + std::to_string(row) + ": '" + f + "'";
    }
  }
  return {};
}

// The run's --end: ten steps of the mutated file's solver.step when it has one that is a plain
// positive number, else of the default step (1e-3 s); bounds the run by a step count.
std::string short_end(const std::string& text) {
  static const std::regex step(R"(\n\s*step:\s*([0-9.eE+-]+))");
  std::smatch m;
  double h = 1e-3;
  if (std::regex_search(text, m, step)) {
    const double v = std::strtod(m[1].str().c_str(), nullptr);
    if (std::isfinite(10.0 * v) && v > 0.0) h = v;
  }
  return format_number(10.0 * h);
}

// Issue 28: the other commands take odd arguments too. One case in five also runs `gear` with
// random option values, or `sweep` over a random axis of its model (cut to a few steps, two
// processes); both must refuse what they cannot use with exit status 1 or 2, never crash or hang.
// (Its own generator, so that the model mutations of case k stay those of earlier versions.)
std::vector<std::string> command_case(Rng& rng, const Options& o, const fs::path& model,
                                      const std::string& end, const fs::path& dir,
                                      std::string& log) {
  static const std::string odd[] = {"0",   "-5",         "3",   "20", "1e300", "nan",
                                    "inf", "-inf",       "abc", "",   "1e-9",  "2.5",
                                    "27",  "2147483648", "1e6", "-0", "1,2"};
  const auto value = [&] { return odd[pick(rng, std::size(odd))]; };
  if (pick(rng, 2) == 0) {
    std::vector<std::string> argv = {o.cli,
                                     "gear",
                                     "--module-mm",
                                     value(),
                                     "--teeth",
                                     value(),
                                     "--face-width-mm",
                                     value(),
                                     "-o",
                                     (dir / "fuzz_gear.stl").string()};
    static const std::string extra[] = {"--slices",
                                        "--flank-points",
                                        "--fillet-points",
                                        "--helix-angle-deg",
                                        "--profile-shift",
                                        "--mate-teeth",
                                        "--centre-distance-mm",
                                        "--chord-tolerance-um",
                                        "--pressure-angle-deg",
                                        "--gap-mm"};
    for (std::size_t n = pick(rng, 3); n > 0; --n) {
      argv.push_back(extra[pick(rng, std::size(extra))]);
      argv.push_back(value());
    }
    if (pick(rng, 4) == 0) argv.push_back("--double-helical");
    for (std::size_t a = 1; a < argv.size(); ++a) log += " " + argv[a];
    return argv;
  }
  static const std::string paths[] = {"solver.step",  "gravity[2]",  "solver.rho_inf",
                                      "output.every", "no.such.key", "solver.end"};
  static const std::string specs[] = {"1e-4:2e-4:2", "0:inf:2", "1,2",   "",         ",",
                                      "1:1:0",       "1:2:1e7", "a:b:2", "-1,1e300", "nan"};
  const std::string path = paths[pick(rng, std::size(paths))];
  std::vector<std::string> argv = {o.cli,          "sweep",
                                   model.string(), "-q",
                                   "--set",        "solver.end=" + end,
                                   "-o",           (dir / "fuzz_sweep").string(),
                                   "-j",           pick(rng, 3) == 0 ? value() : "2",
                                   "--vary",       path + "=" + specs[pick(rng, std::size(specs))]};
  if (pick(rng, 3) == 0) argv.insert(argv.end(), {"--vary", argv.back()});  // a path twice
  for (std::size_t a = 1; a < argv.size(); ++a) log += " " + argv[a];
  return argv;
}

struct Tally {
  std::map<std::string, long> codes;  // "check 1 / run -" and so on
  long failures = 0;
};

// Checks and runs one case; prints it when it fails.
void run_case(const Options& o, const std::vector<Model>& models, long k, Tally& tally) {
  Rng rng(o.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(k));
  const Model& model = models[static_cast<std::size_t>(k) % models.size()];
  std::string log;
  const std::string text = mutate(rng, model.text, log);
  // Beside copies of the example's other files (meshes), so that relative paths still work.
  const fs::path dir = fs::path(o.work) / model.file.parent_path().filename();
  const std::string stem = "case_" + std::to_string(k) + "_" + model.file.stem().string();
  const fs::path yaml = dir / (stem + ".yaml"), csv = dir / (stem + ".csv"),
                 out = dir / (stem + ".out");
  std::ofstream(yaml, std::ios::binary) << text;
  const Outcome check = run_process({o.cli, "check", yaml.string()}, out, o.timeout, o.memory_mb);
  std::string problem = outcome_problem("check", check);
  Outcome run;
  run.code = -1000;  // not run
  // A model check refuses is run too one case in four (run reads it on another path: overrides,
  // the result file); the others would only repeat the reader's refusal.
  if (problem.empty() && (check.code == 0 || k % 4 == 0)) {
    std::error_code ec;
    fs::remove(csv, ec);
    run = run_process(
        {o.cli, "run", yaml.string(), "-q", "-o", csv.string(), "--end", short_end(text)}, out,
        o.timeout, o.memory_mb);
    problem = outcome_problem("run", run);
    if (problem.empty() && fs::exists(csv))
      if (const std::string bad = non_finite_field(csv); !bad.empty())
        problem = "the run wrote a value that is not finite, " + bad;
  }
  if (problem.empty() && k % 5 == 0) {
    Rng command_rng(o.seed * 0xC2B2AE3D27D4EB4FULL + static_cast<std::uint64_t>(k));
    std::string command_log;
    // The example as the fuzz reads it (coarse gears), beside its meshes.
    const fs::path base = dir / (stem + "_base.yaml");
    std::ofstream(base, std::ios::binary) << model.text;
    const Outcome c =
        run_process(command_case(command_rng, o, base, short_end(model.text), dir, command_log),
                    out, o.timeout, o.memory_mb);
    if (!o.keep) {
      std::error_code ec;
      fs::remove(base, ec);
      fs::remove_all(dir / "fuzz_sweep", ec);
    }
    log += ";" + command_log;
    problem = outcome_problem("the command", c);
    ++tally.codes["command " + std::to_string(c.code)];
    if (!problem.empty()) run.output = c.output;
  }
  ++tally.codes["check " + std::to_string(check.code) + ", run " +
                (run.code == -1000 ? std::string("-") : std::to_string(run.code))];
  if (o.verbose)
    std::printf("case %ld %s: check %d, run %d: %s\n", k, model.file.string().c_str(), check.code,
                run.code, log.c_str());
  if (problem.empty()) {
    if (!o.keep) {
      std::error_code ec;
      for (const auto& p : {yaml, csv, out}) fs::remove(p, ec);
    }
    return;
  }
  ++tally.failures;
  std::printf(
      "FAIL case %ld (seed %llu, %s): %s\n  mutations: %s\n  replay: clearsim_model_fuzz --cli "
      "%s --examples %s --work %s --seed %llu --first %ld --count 1 --keep\n  output:\n%s\n",
      k, static_cast<unsigned long long>(o.seed), model.file.string().c_str(), problem.c_str(),
      log.c_str(), o.cli.c_str(), o.examples.c_str(), o.work.c_str(),
      static_cast<unsigned long long>(o.seed), k,
      (run.output.empty() ? check : run).output.c_str());
}

// A gear shape at its default resolution makes a mesh contact of a hundred thousand triangles
// (ship_reducer/mesh.yaml: 46 s to check): the fuzz gives every flow-style gear map a coarse
// resolution, which the mutations may then change like any other value.
std::string coarse_gears(std::string text) {
  static const std::string gear = "gear: {",
                           coarse =
                               "resolution: {flank_points: 3, fillet_points: 1, root_points: "
                               "1, tip_points: 0, slices: 2}, ";
  for (std::size_t at = text.find(gear); at != std::string::npos; at = text.find(gear, at + 1))
    text.insert(at + gear.size(), coarse);
  return text;
}

// Every *.yaml under examples/*/, in a fixed order; the other files of each folder copied to
// the work folder (meshes and URDF files the models name).
std::vector<Model> load_models(const Options& o) {
  std::vector<Model> models;
  for (const auto& dir : fs::directory_iterator(o.examples)) {
    if (!dir.is_directory()) continue;
    const fs::path work = fs::path(o.work) / dir.path().filename();
    for (const auto& f : fs::directory_iterator(dir.path())) {
      if (f.path().extension() == ".yaml") {
        models.push_back({f.path(), coarse_gears(read_file(f.path()))});
      } else if (f.path().extension() == ".stl" || f.path().extension() == ".urdf") {
        fs::create_directories(work);
        fs::copy_file(f.path(), work / f.path().filename(), fs::copy_options::overwrite_existing);
      }
    }
    fs::create_directories(work);
  }
  std::sort(models.begin(), models.end(),
            [](const Model& a, const Model& b) { return a.file < b.file; });
  return models;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + ": expected a value");
      return argv[++i];
    };
    if (a == "--cli")
      o.cli = next();
    else if (a == "--examples")
      o.examples = next();
    else if (a == "--work")
      o.work = next();
    else if (a == "--seed")
      o.seed = std::stoull(next());
    else if (a == "--first")
      o.first = std::stol(next());
    else if (a == "--count")
      o.count = std::stol(next());
    else if (a == "--timeout")
      o.timeout = std::stod(next());
    else if (a == "--keep")
      o.keep = true;
    else if (a == "--verbose")
      o.verbose = true;
    else if (a == "--memory-mb")
      o.memory_mb = std::stol(next());
    else
      throw std::invalid_argument("unknown option " + a);
  }
  if (o.cli.empty() || o.examples.empty() || o.work.empty())
    throw std::invalid_argument("--cli, --examples and --work are required");
  return o;
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  fs::create_directories(o.work);
  const std::vector<Model> models = load_models(o);
  if (models.empty()) throw std::runtime_error("no model under " + o.examples);
  Tally tally;
  const auto start = std::chrono::steady_clock::now();
  for (long k = o.first; k < o.first + o.count; ++k) run_case(o, models, k, tally);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%ld cases (%ld to %ld, seed %llu) over %zu model files in %.1f s: %ld failed\n",
              o.count, o.first, o.first + o.count - 1, static_cast<unsigned long long>(o.seed),
              models.size(), wall, tally.failures);
  for (const auto& [codes, n] : tally.codes) std::printf("  %s: %ld\n", codes.c_str(), n);
  return tally.failures == 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "clearsim_model_fuzz: %s\n", e.what());
  return 2;
}
