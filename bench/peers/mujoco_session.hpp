// Owns one MuJoCo model and its data, loaded from an MJCF string. MuJoCo 2.2's loader reads files
// (or its virtual file system); a temporary file is the shortest correct path.
#pragma once

#include <mujoco/mujoco.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace cs::bench::peers {

class MujocoSession {
 public:
  explicit MujocoSession(const std::string& mjcf) {
    char path[] = "/tmp/clearsim_peers_XXXXXX.xml";
    const int fd = mkstemps(path, 4);
    if (fd < 0) throw std::runtime_error("MuJoCo: cannot create a temporary MJCF file");
    close(fd);
    std::ofstream(path) << mjcf;
    char error[1000] = "";
    model_ = mj_loadXML(path, nullptr, error, sizeof error);
    std::remove(path);
    if (!model_) throw std::runtime_error(std::string("MuJoCo: ") + error);
    data_ = mj_makeData(model_);
  }
  MujocoSession(const MujocoSession&) = delete;
  MujocoSession& operator=(const MujocoSession&) = delete;
  ~MujocoSession() {
    mj_deleteData(data_);
    mj_deleteModel(model_);
  }

  mjModel* model() { return model_; }
  mjData* data() { return data_; }

 private:
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
};

}  // namespace cs::bench::peers
