#include "clearsim/sensitivity/adjoint_objective.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "clearsim/io/result_text.hpp"
#include "clearsim/io/result_writer.hpp"

namespace cs {

namespace {
std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(trim(item));
  return out;
}

bool to_number(const std::string& s, double& x) {
  if (s.empty()) return false;
  char* end = nullptr;
  x = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// A time within a step's round-off of the reference's span counts as inside it.
constexpr double kSpanSlack = 1e-9;
}  // namespace

AdjointObjective AdjointObjective::parse(const std::string& text) {
  AdjointObjective o;
  o.text_ = text;
  const std::string bad = "--objective '" + text + "': ";
  const auto open = text.find('('), close = text.rfind(')');
  if (open == std::string::npos || close != text.size() - 1 || close < open)
    throw std::invalid_argument(bad +
                                "expected end(CHANNEL), integral(CHANNEL), pnorm(CHANNEL, P) or "
                                "rms(CHANNEL, FILE)");
  const std::string kind = trim(text.substr(0, open));
  const std::vector<std::string> args = split(text.substr(open + 1, close - open - 1), ',');
  const std::size_t want = (kind == "pnorm" || kind == "rms") ? 2 : 1;
  if (kind == "end")
    o.kind_ = Kind::kEnd;
  else if (kind == "integral")
    o.kind_ = Kind::kIntegral;
  else if (kind == "pnorm")
    o.kind_ = Kind::kPNorm;
  else if (kind == "rms")
    o.kind_ = Kind::kRms;
  else
    throw std::invalid_argument(bad + "unknown objective '" + kind +
                                "' (end, integral, pnorm, rms)");
  if (args.size() != want || args[0].empty())
    throw std::invalid_argument(bad + kind + " takes " +
                                (want == 1         ? "one argument, a channel"
                                 : kind == "pnorm" ? "a channel and an exponent P"
                                                   : "a channel and a CSV file"));
  o.channel_ = args[0];
  if (o.kind_ == Kind::kPNorm &&
      (!to_number(args[1], o.p_) || !(o.p_ > 1.0) || !std::isfinite(o.p_)))
    throw std::invalid_argument(bad + "the exponent P must be a number > 1, not '" + args[1] + "'");
  if (o.kind_ == Kind::kRms) o.read_reference(args[1]);
  return o;
}

void AdjointObjective::read_reference(const std::string& path) {
  // A CSV of rows time,value; or a result of clearsim (header row, '#' lines), whose column
  // named after the channel is the reference (else the second column).
  const std::string bad = "--objective '" + text_ + "': reference " + path + ": ";
  std::istringstream in;
  try {
    in.str(read_result_text(path));
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument("--objective '" + text_ + "': reference " + e.what());
  }
  std::string line;
  std::size_t column = 1;
  bool first = true;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = split(line, ',');
    double t = 0.0, v = 0.0;
    if (first && !to_number(f[0], t)) {  // a header
      const auto it = std::find(f.begin(), f.end(), channel_);
      if (it != f.end()) column = static_cast<std::size_t>(it - f.begin());
      first = false;
      continue;
    }
    first = false;
    if (f.size() <= column || !to_number(f[0], t) || !to_number(f[column], v))
      throw std::invalid_argument(bad + "a row is not time,value: '" + line + "'");
    if (!ref_t_.empty() && !(t > ref_t_.back()))
      throw std::invalid_argument(bad + "times must increase ('" + line + "')");
    ref_t_.push_back(t);
    ref_v_.push_back(v);
  }
  if (ref_t_.size() < 2) throw std::invalid_argument(bad + "needs at least two rows");
}

double AdjointObjective::reference_at(double t) const {
  const auto it = std::upper_bound(ref_t_.begin(), ref_t_.end(), t);
  const std::size_t k =
      std::clamp<std::size_t>(static_cast<std::size_t>(it - ref_t_.begin()), 1, ref_t_.size() - 1);
  const double s = (t - ref_t_[k - 1]) / (ref_t_[k] - ref_t_[k - 1]);
  return (1.0 - s) * ref_v_[k - 1] + s * ref_v_[k];
}

std::string AdjointObjective::unit() const {
  const std::string u = channel_unit(channel_);
  if (kind_ != Kind::kIntegral || u.empty()) return u;
  return u == "1" ? "s" : u + "*s";
}

double AdjointObjective::evaluate(const std::vector<double>& t, const std::vector<double>& c,
                                  std::vector<double>& w) const {
  const std::size_t n = c.size();
  w.assign(n, 0.0);
  const std::string bad = "--objective '" + text_ + "': ";
  switch (kind_) {
    case Kind::kEnd:
      w[n - 1] = 1.0;
      return c[n - 1];
    case Kind::kIntegral: {
      double J = 0.0;
      for (std::size_t k = 0; k + 1 < n; ++k) {
        const double h = 0.5 * (t[k + 1] - t[k]);
        J += h * (c[k] + c[k + 1]);
        w[k] += h;
        w[k + 1] += h;
      }
      return J;
    }
    case Kind::kPNorm: {
      // Scaled by the largest |c| so that |c|^P neither overflows nor underflows.
      double top = 0.0;
      for (double x : c) top = std::max(top, std::abs(x));
      if (!(top > 0.0))
        throw std::invalid_argument(bad + "the channel is zero throughout: no derivative");
      double sum = 0.0;
      for (double x : c) sum += std::pow(std::abs(x) / top, p_);
      const double J = top * std::pow(sum / static_cast<double>(n), 1.0 / p_);
      for (std::size_t k = 0; k < n; ++k)
        w[k] = std::pow(std::abs(c[k]) / J, p_ - 1.0) / static_cast<double>(n) *
               (c[k] < 0.0 ? -1.0 : 1.0);
      return J;
    }
    case Kind::kRms: {
      double sum = 0.0;
      std::size_t count = 0;
      for (std::size_t k = 0; k < n; ++k) {
        if (t[k] < ref_t_.front() - kSpanSlack || t[k] > ref_t_.back() + kSpanSlack) continue;
        const double e = c[k] - reference_at(t[k]);
        sum += e * e;
        w[k] = e;
        ++count;
      }
      if (count == 0)
        throw std::invalid_argument(bad + "the run has no step inside the reference's time span");
      const double J = std::sqrt(sum / static_cast<double>(count));
      if (!(J > 0.0))
        throw std::invalid_argument(
            bad + "the channel equals the reference: an RMS of zero has no derivative");
      for (double& x : w) x /= static_cast<double>(count) * J;
      return J;
    }
  }
  return 0.0;
}

}  // namespace cs
