// The sweep table (CSV) and the byte form of a run.
#include <charconv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "clearsim/study/sweep.hpp"

namespace cs {

namespace {

std::string number(double x) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, ec == std::errc() ? end : buf);
}

// A CSV field, quoted when it holds a comma, a quote or a line break.
std::string field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// The k-th entry of a run's gradient, NaN if it has none (a failed run).
double entry(const std::vector<double>& d, std::size_t k) {
  return k < d.size() ? d[k] : std::numeric_limits<double>::quiet_NaN();
}

void row(std::ostream& out, const std::string& label, const SweepRun& run,
         const std::vector<SweepAxis>& axes, std::size_t gradients) {
  out << field(label);
  for (const SweepAxis& axis : axes) {
    std::string value;
    for (const Override& o : run.parameters)
      if (o.path == axis.path) value = o.value;
    out << ',' << field(value);
  }
  const RunStats& s = run.stats;
  out << ',' << (run.ok ? "true" : "false") << ',' << number(run.max_contact_force) << ','
      << number(s.max_penetration) << ',' << s.contact_onsets << ',' << s.impact_steps << ','
      << number(run.rms_distance);
  for (std::size_t k = 0; k < gradients; ++k)
    out << ',' << number(entry(run.d_max_contact_force, k)) << ','
        << number(entry(run.d_rms_distance, k));
  out << ',' << s.steps << ',' << s.newton_iterations << ',' << number(s.wall_seconds) << ','
      << field(run.csv) << ',' << field(run.error) << '\n';
}

// Little-endian-as-stored bytes of plain values and strings.
class Writer {
 public:
  template <class T>
  void put(const T& x) {
    bytes_.append(reinterpret_cast<const char*>(&x), sizeof x);
  }
  void put(const std::string& s) {
    put<std::uint64_t>(s.size());
    bytes_ += s;
  }
  void put(const std::vector<double>& v) {
    put<std::uint64_t>(v.size());
    if (!v.empty())
      bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
  }
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(const std::string& b) : b_(b) {}
  template <class T>
  void get(T& x) {
    need(sizeof x);
    std::memcpy(&x, b_.data() + pos_, sizeof x);
    pos_ += sizeof x;
  }
  void get(std::string& s) {
    std::uint64_t n = 0;
    get(n);
    need(n);
    s.assign(b_.data() + pos_, n);
    pos_ += n;
  }
  void get(std::vector<double>& v) {
    std::uint64_t n = 0;
    get(n);
    need(n * sizeof(double));
    v.resize(n);
    // memcpy needs a valid pointer even for no bytes, and an empty vector's data() may be null.
    if (n > 0) std::memcpy(v.data(), b_.data() + pos_, n * sizeof(double));
    pos_ += n * sizeof(double);
  }

 private:
  void need(std::uint64_t n) const {
    if (n > b_.size() - pos_) throw std::runtime_error("truncated sweep result");
  }
  const std::string& b_;
  std::size_t pos_ = 0;
};

template <class IO, class Run>
void fields(IO&& io, Run& r) {
  auto& s = r.stats;
  io(r.ok, r.error, s.steps, s.rejected_steps, s.newton_iterations, s.factorizations,
     s.position_iterations, s.velocity_iterations, s.last_iterations, s.last_step,
     s.max_constraint_violation, s.open_steps, s.contact_steps, s.impact_steps, s.contact_onsets,
     s.plastic_impacts, s.max_penetration, s.wall_seconds, s.ok, s.message, r.max_contact_force,
     r.rms_distance, r.csv, r.channel, r.time, r.values, r.d_max_contact_force, r.d_rms_distance,
     r.d_values);
}

}  // namespace

void write_sweep_table(const std::string& path, const SweepResult& result) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write the sweep table " + path);
  out << "run";
  for (const SweepAxis& axis : result.axes) out << ',' << field(axis.path);
  const std::string channel = result.reference.channel;
  const std::string rms = "rms_distance(" + channel + ")";
  out << ",ok,max_contact_force,max_penetration,contact_onsets,impact_steps," << field(rms);
  for (const std::string& p : result.gradients)
    out << ',' << field("d(max_contact_force)/d(" + p + ")") << ','
        << field("d(" + rms + ")/d(" + p + ")");
  out << ",steps,newton_iterations,wall_seconds,csv,error\n";
  const std::size_t g = result.gradients.size();
  row(out, "reference", result.reference, result.axes, g);
  for (std::size_t k = 0; k < result.runs.size(); ++k)
    row(out, std::to_string(k), result.runs[k], result.axes, g);
  if (!out) throw std::runtime_error("cannot write the sweep table " + path);
}

std::string serialize(const SweepRun& run) {
  Writer w;
  w.put<std::uint64_t>(run.parameters.size());
  for (const Override& o : run.parameters) {
    w.put(o.path);
    w.put(o.value);
  }
  fields([&w](const auto&... x) { (w.put(x), ...); }, run);
  return std::move(w.bytes_);
}

SweepRun deserialize_sweep_run(const std::string& bytes) {
  Reader r(bytes);
  SweepRun run;
  std::uint64_t n = 0;
  r.get(n);
  run.parameters.resize(n);
  for (Override& o : run.parameters) {
    r.get(o.path);
    r.get(o.value);
  }
  fields([&r](auto&... x) { (r.get(x), ...); }, run);
  return run;
}

}  // namespace cs
