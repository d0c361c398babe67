// Models from data (clearsim.from_dict) and models written back (Model.to_yaml): generated text
// is read by the same reader, its messages name items by path instead of positions nobody wrote,
// and a document written by write_model_yaml reads to the same values.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "clearsim/io/model_reader.hpp"
#include "clearsim/io/model_yaml.hpp"

namespace cs {
namespace {

std::string error_of(const std::string& text, bool generated) {
  try {
    if (generated) {
      load_model_generated(text, "m", {});
    } else {
      load_model_string(text, "m.yaml", {});
    }
  } catch (const ModelFileError& e) {
    EXPECT_EQ(e.line() == 0, generated) << e.what();
    return e.message();
  }
  return "(no error)";
}

TEST(ModelGenerated, MessagesNameThePathInsteadOfAPosition) {
  const std::string unknown_key = "bodies:\n  b:\n    mas: 2\n    inertia: [1, 1, 1]\n";
  const std::string from_file = error_of(unknown_key, false);
  EXPECT_EQ(from_file.rfind("unknown key 'mas' in body 'b'", 0), 0u) << from_file;
  // The reader's own text, preceded by the path it does not name.
  EXPECT_EQ(error_of(unknown_key, true), "bodies.b.mas: " + from_file);
  // A message that names its item already is the file's, word for word.
  const std::string negative =
      "bodies:\n  b: {mass: -2, inertia: [1, 1, 1], position: [0, 0, 0]}\n";
  EXPECT_EQ(error_of(negative, true), error_of(negative, false));
  EXPECT_NE(error_of(negative, true).find("bodies.b.mass: expected a positive number"),
            std::string::npos);
}

TEST(ModelGenerated, QuotedScalarsStayStringsWhenWritten) {
  YAML::Node doc = YAML::Load("model: \"3\"\nmass: 0.30\nv: [1.0e-5, 0]\n");
  const std::string text = write_model_yaml(doc);
  EXPECT_NE(text.find("model: \"3\""), std::string::npos) << text;
  EXPECT_NE(text.find("mass: 0.30"), std::string::npos) << text;  // the text as written
  EXPECT_NE(text.find("v: [1.0e-5, 0]"), std::string::npos) << text;
  YAML::Node built(YAML::NodeType::Map);
  YAML::Node name("0.5");
  name.SetTag("!");
  built["name"] = name;
  EXPECT_EQ(write_model_yaml(built), "name: \"0.5\"\n");
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every example model written back with an override reads to the same values as the original
// with that override, and writing it again changes nothing.
TEST(ModelGenerated, ExampleModelsWrittenBackReadTheSame) {
  int count = 0;
  for (const auto& dir : std::filesystem::directory_iterator(
           std::filesystem::path(CLEARSIM_SOURCE_DIR) / "examples")) {
    const std::filesystem::path file = dir.path() / "model.yaml";
    if (!std::filesystem::exists(file)) continue;
    const std::string text = read_text(file);
    const std::vector<Override> end = {{"solver.end", "0.125"}};
    const std::string written = model_text_with_overrides(text, file.string(), end);
    EXPECT_EQ(model_text_with_overrides(written, file.string(), {{"solver.end", "0.125"}}), written)
        << file;
    const LoadedModel a = load_model_string(text, file.string(), end);
    const LoadedModel b = load_model_string(written, file.string());
    EXPECT_EQ(b.run.solver.end, 0.125) << file;
    EXPECT_EQ(a.run.solver.step, b.run.solver.step) << file;
    EXPECT_EQ(a.model.num_bodies(), b.model.num_bodies()) << file;
    ASSERT_EQ(a.model.bodies.size(), b.model.bodies.size()) << file;
    for (std::size_t k = 0; k < a.model.bodies.size(); ++k) {
      EXPECT_EQ(a.model.bodies[k].mass, b.model.bodies[k].mass) << file;
      EXPECT_EQ(a.model.bodies[k].x0_W, b.model.bodies[k].x0_W) << file;
      EXPECT_EQ(a.model.bodies[k].inertia_B, b.model.bodies[k].inertia_B) << file;
    }
    EXPECT_EQ(a.run.output.channels, b.run.output.channels) << file;
    ++count;
  }
  EXPECT_GT(count, 10);
}

}  // namespace
}  // namespace cs
