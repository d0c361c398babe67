// A URDF robot as the `bodies`, `joints` and `shapes` sections of a model file (private to
// src/io; docs/model-format.md, "URDF import"). The robot is translated into the same YAML node
// tree the reader consumes, so the reader's checks and messages apply unchanged to what a URDF
// file gives, and a model file's own keys can be merged on top (model_reader_urdf.cpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace cs::model_file {

struct UrdfSections {
  YAML::Node bodies;  // maps name -> entry, in the URDF file's order
  YAML::Node joints;
  YAML::Node shapes;  // collision meshes; null when there are none
  // What the import read but clearsim does not model (joint limits, joint dynamics, mimic).
  std::vector<std::string> notes;
};

// Reads the URDF file at `path` (urdfdom for the model, urdf_scan for lines and the checks urdfdom
// leaves out). The root link is the ground; every other link is a body whose frame is its
// inertial frame, at the joint angles 0. Fails with a ModelFileError "FILE.urdf:LINE:COL: ...".
UrdfSections import_urdf(const std::string& path);

}  // namespace cs::model_file
