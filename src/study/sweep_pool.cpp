// Runs a sweep's points in child processes (fork), a few at a time, and collects their results
// through files in the output folder. A child that dies is reported as that run's error.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "clearsim/study/sweep.hpp"

namespace cs {

namespace {

struct Job {
  std::vector<Override> overrides;
  std::string csv;
  std::string result_file;  // where the child leaves its serialized SweepRun
};

void write_result(const std::string& path, const SweepRun& run) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << serialize(run);
  }
  std::filesystem::rename(tmp, path);
}

SweepRun read_result(const Job& job, int status) {
  std::ifstream in(job.result_file, std::ios::binary);
  if (in) {
    std::ostringstream bytes;
    bytes << in.rdbuf();
    in.close();
    std::filesystem::remove(job.result_file);
    return deserialize_sweep_run(bytes.str());
  }
  SweepRun run;
  run.parameters = job.overrides;
  run.csv = job.csv;
  std::ostringstream why;
  why << "the run's process ";
  if (WIFSIGNALED(status)) {
    why << "was killed by signal " << WTERMSIG(status);
  } else {
    why << "ended with status " << WEXITSTATUS(status) << " without a result";
  }
  run.error = why.str();
  return run;
}

}  // namespace

SweepResult run_sweep(const std::string& text, const std::string& name,
                      const std::vector<SweepAxis>& axes, const SweepOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  namespace fs = std::filesystem;
  const std::vector<std::vector<Override>> grid = sweep_grid(axes);  // (checks the axes)
  fs::create_directories(options.out_dir);
  const fs::path dir(options.out_dir);
  std::vector<Job> jobs;
  jobs.push_back(
      {options.base, (dir / "reference.csv").string(), (dir / ".reference.result").string()});
  for (std::size_t k = 0; k < grid.size(); ++k) {
    char stem[32];
    std::snprintf(stem, sizeof stem, "run_%03zu", k);
    std::vector<Override> overrides = options.base;
    overrides.insert(overrides.end(), grid[k].begin(), grid[k].end());
    std::ostringstream csv, result_file;
    csv << stem << ".csv";
    result_file << "." << stem << ".result";
    jobs.push_back({overrides, (dir / csv.str()).string(), (dir / result_file.str()).string()});
  }

  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t max_running = options.jobs > 0 ? static_cast<std::size_t>(options.jobs) : cores;
  std::vector<SweepRun> done(jobs.size());
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  auto last_check = std::chrono::steady_clock::now();
  std::fflush(nullptr);  // a child must not write the parent's buffered output again
  while (next < jobs.size() || !running.empty()) {
    while (running.size() < max_running && next < jobs.size()) {
      const Job& job = jobs[next];
      const pid_t pid = fork();
      if (pid == 0) {
        // The child: one run, its result left in a file, and out without the parent's exit
        // handlers.
        int code = 0;
        try {
          write_result(job.result_file, run_sweep_point(text, name, job.overrides, job.csv,
                                                        options.channel, options.gradients));
        } catch (...) {
          code = 1;
        }
        _exit(code);
      }
      if (pid < 0) {  // no process available: run it here
        done[next] =
            run_sweep_point(text, name, job.overrides, job.csv, options.channel, options.gradients);
      } else {
        running.emplace(pid, next);
      }
      ++next;
    }
    // Only our own children are waited for (the caller may have other child processes).
    bool reaped = false;
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      if (waitpid(it->first, &status, WNOHANG) == it->first) {
        done[it->second] = read_result(jobs[it->second], status);
        it = running.erase(it);
        reaped = true;
      } else {
        ++it;
      }
    }
    if (!reaped && !running.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const auto now = std::chrono::steady_clock::now();
    if (options.interrupted && now - last_check >= std::chrono::milliseconds(100)) {
      last_check = now;
      if (options.interrupted()) {
        for (const auto& [pid, k] : running) kill(pid, SIGKILL);
        for (const auto& [pid, k] : running) {
          int status = 0;
          waitpid(pid, &status, 0);
          std::error_code ec;
          std::filesystem::remove(jobs[k].result_file, ec);
        }
        throw SweepInterrupted();
      }
    }
  }

  SweepResult result;
  result.axes = axes;
  result.gradients = options.gradients;
  result.reference = std::move(done.front());
  result.runs.assign(std::make_move_iterator(done.begin() + 1),
                     std::make_move_iterator(done.end()));
  compare_with_reference(result);
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

void compare_with_reference(SweepResult& result) {
  const auto compare = [&result](SweepRun& run) {
    run.rms_distance = rms_distance(run, result.reference);
    run.d_rms_distance.clear();
    for (std::size_t k = 0; k < result.gradients.size(); ++k)
      run.d_rms_distance.push_back(rms_distance_derivative(run, result.reference, k));
  };
  for (SweepRun& run : result.runs) compare(run);
  compare(result.reference);
}

}  // namespace cs
