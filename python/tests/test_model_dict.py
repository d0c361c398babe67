"""Models from code (clearsim.from_dict): the same reader, messages and runs as a model file,
and Model.to_yaml / save writing a model back as a file."""

import numpy as np
import pytest

import clearsim
from conftest import MODEL

SHORT = {"solver.end": 0.004}


def slider_crank():
    """examples/spherical_clearance_slider_crank/model.yaml as Python data, with numpy values
    where a script would have them."""
    return {
        "model": "spherical_clearance_slider_crank",
        "gravity": np.zeros(3),
        "bodies": {
            "crank": {"mass": 0.30, "inertia": [1.0e-5] * 3, "position": [0.025, 0, 0]},
            "rod": {"mass": np.float64(0.21), "inertia": np.full(3, 2.5e-4),
                    "position": (0.110, 0, 0), "angular_velocity": [0, 0, -218.1661565]},
            "slider": {"mass": 0.14, "inertia": [1.0e-4, 1.0e-4, 1.0e-4],
                       "position": [0.170, 0, 0]},
        },
        "joints": {
            "crank_pivot": {"type": "revolute", "bodies": ["ground", "crank"], "at": [0, 0, 0],
                            "axis": np.array([0, 0, 1])},
            "crank_rod": {"type": "spherical", "bodies": ["crank", "rod"], "at": [0.05, 0, 0]},
            "rod_slider": {"type": "spherical", "bodies": ["rod", "slider"], "at": [0.17, 0, 0],
                           "clearance": {"radial": 0.5e-3, "restitution": 0.9}},
            "slider_guide": {"type": "prismatic", "bodies": ["ground", "slider"],
                             "axis": [1, 0, 0]},
        },
        "drivers": {"crank_speed": {"joint": "crank_pivot", "angular_velocity": 523.5987756}},
        "solver": {"integrator": "nsga", "rho_inf": 0.8, "step": 1.0e-5, "end": 0.3},
        "output": {"every": np.int64(1), "channels": [
            "slider.position.x", "slider.velocity.x", "slider.acceleration.x",
            "system.kinetic_energy", "system.constraint_violation", "rod_slider.journal",
            "rod_slider.gap", "rod_slider.eccentricity_ratio", "rod_slider.contact_state",
            "rod_slider.contact_force", "rod_slider.impulse", "system.contact_onsets",
            "system.impact_steps", "system.max_penetration"]},
    }


def assert_same_run(a, b):
    assert list(a.channels) == list(b.channels)
    for name in a.channels:
        assert np.array_equal(a[name], b[name]), name
    assert a.summary["steps"] == b.summary["steps"]


def test_dict_runs_as_the_model_file_bit_for_bit():
    from_file = clearsim.load(MODEL, SHORT).run()
    from_dict = clearsim.from_dict(slider_crank(), overrides=SHORT).run()
    assert_same_run(from_dict, from_file)
    assert len(from_dict.time) == 401
    # The clearance is what this run is about: it must have acted.
    assert np.any(from_dict["rod_slider.contact_state"] > 0)


def test_dict_round_trips_through_yaml(tmp_path):
    m = clearsim.from_dict(slider_crank(), overrides=SHORT).with_overrides(
        {"joints.rod_slider.clearance.radial": 7e-4})
    text = m.to_yaml()
    assert "radial: 0.0007" in text and "end: 0.004" in text
    assert_same_run(clearsim.loads(text).run(), m.run())
    path = tmp_path / "crank.yaml"
    m.save(path)
    saved = clearsim.load(path)
    assert saved.name == "spherical_clearance_slider_crank"
    assert saved.overrides == []
    assert_same_run(saved.run(), m.run())


def test_file_with_overrides_written_back():
    m = clearsim.load(MODEL, SHORT)
    assert clearsim.load(MODEL).to_yaml() == MODEL.read_text()  # as written, comments and all
    assert_same_run(clearsim.loads(m.to_yaml()).run(), m.run())


def test_quoted_strings_stay_strings_when_written_back():
    text = 'model: "3"\nbodies:\n  b: {mass: 1, inertia: [1, 1, 1], position: [0, 0, 0]}\n'
    m = clearsim.loads(text, overrides={"bodies.b.mass": 2})
    back = m.to_yaml()
    assert 'model: "3"' in back
    assert clearsim.loads(back).name == "3"
    # A str that reads as a number is written quoted: refused as a number, as in a file.
    with pytest.raises(clearsim.ModelFileError, match='found the string "2"'):
        clearsim.from_dict({"bodies": {"b": {"mass": "2", "inertia": [1, 1, 1],
                                             "position": [0, 0, 0]}}})
    body = {"mass": 1, "inertia": [1, 1, 1], "position": [0, 0, 0]}
    assert clearsim.from_dict({"model": "true", "bodies": {"b": body}}).name == "true"


# Bad input: the same model written as YAML and as a dict, broken the same way.
def crank_yaml(body="mass: 0.3, inertia: [1.0e-5, 1.0e-5, 1.0e-5]", type_="revolute",
               bodies="[ground, crank]"):
    return (f"bodies:\n  crank: {{{body}, position: [0.025, 0, 0]}}\n"
            f"joints:\n  pivot: {{type: {type_}, bodies: {bodies}, at: [0, 0, 0], "
            f"axis: [0, 0, 1]}}\n")


def crank_dict(body=None, type_="revolute", bodies=("ground", "crank")):
    body = dict(body or {"mass": 0.3, "inertia": [1.0e-5, 1.0e-5, 1.0e-5]})
    body["position"] = [0.025, 0, 0]
    return {"bodies": {"crank": body},
            "joints": {"pivot": {"type": type_, "bodies": list(bodies), "at": [0, 0, 0],
                                 "axis": [0, 0, 1]}}}


BAD = {
    "negative mass": (crank_yaml(body="mass: -0.3, inertia: [1, 1, 1]"),
                      crank_dict(body={"mass": -0.3, "inertia": [1, 1, 1]}),
                      "bodies.crank.mass: expected a positive number [kg]"),
    "wrong type": (crank_yaml(body="mass: [1, 2], inertia: [1, 1, 1]"),
                   crank_dict(body={"mass": [1, 2], "inertia": [1, 1, 1]}),
                   "bodies.crank.mass: expected a positive number [kg], found a list"),
    "unknown key": (crank_yaml(body="mas: 0.3, inertia: [1, 1, 1]"),
                    crank_dict(body={"mas": 0.3, "inertia": [1, 1, 1]}),
                    "did you mean 'mass'?"),
    "missing body": (crank_yaml(bodies="[ground, crnak]"),
                     crank_dict(bodies=("ground", "crnak")), "unknown body 'crnak'"),
    "unknown joint type": (crank_yaml(type_="revolut"), crank_dict(type_="revolut"),
                           "did you mean 'revolute'?"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_dict_gets_the_readers_message_naming_the_path(case):
    text, data, expected = BAD[case]
    with pytest.raises(clearsim.ModelFileError) as from_yaml:
        clearsim.loads(text, name="crank.yaml")
    with pytest.raises(clearsim.ModelFileError) as from_dict:
        clearsim.from_dict(data, name="crank")
    yaml_error, dict_error = from_yaml.value, from_dict.value
    assert type(dict_error) is type(yaml_error)
    assert expected in yaml_error.message and yaml_error.line > 0
    # The reader's own text; the item named by its path where the text does not name it, and
    # no line or column (they would be those of generated text).
    assert dict_error.message == yaml_error.message or (
        dict_error.message.endswith(": " + yaml_error.message)), (dict_error, yaml_error)
    assert dict_error.line == 0 and dict_error.column == 0
    assert str(dict_error) == "crank: error: " + dict_error.message


def test_unknown_key_is_named_by_its_path():
    with pytest.raises(clearsim.ModelFileError) as e:
        clearsim.from_dict(crank_dict(body={"mas": 0.3, "inertia": [1, 1, 1]}))
    assert e.value.message.startswith("bodies.crank.mas: unknown key 'mas' in body 'crank'")
    assert str(e.value).startswith("<dict>: error: ")


@pytest.mark.parametrize("value, error, text", [
    (1j, TypeError, "bodies.crank.inertia[1]: cannot write complex"),
    (float("nan"), ValueError, "bodies.crank.inertia[1]: expected a finite number, found nan"),
    (np.float64("inf"), ValueError, "bodies.crank.inertia[1]: expected a finite number, found inf"),
    (object(), TypeError, "bodies.crank.inertia[1]: cannot write object"),
    ({1, 2}, TypeError, "bodies.crank.inertia[1]: cannot write set"),
])
def test_values_without_a_place_in_a_model_name_their_path(value, error, text):
    with pytest.raises(error, match=r"^from_dict: " + text.replace("[", r"\[").replace("]", r"\]")):
        clearsim.from_dict(crank_dict(body={"mass": 0.3, "inertia": [1, value, 1]}))


def test_keys_and_top_level_must_be_what_a_file_has():
    with pytest.raises(TypeError, match=r"from_dict: bodies: the key int 3 is not a str"):
        clearsim.from_dict({"bodies": {3: {"mass": 1, "inertia": [1, 1, 1]}}})
    with pytest.raises(TypeError, match="expected a dict of model sections"):
        clearsim.from_dict([("bodies", {})])
    with pytest.raises(TypeError, match="name: expected a str"):
        clearsim.from_dict(crank_dict(), name=5)


def test_numpy_values_are_their_exact_doubles():
    m = clearsim.from_dict(crank_dict(body={"mass": np.float32(0.3),
                                            "inertia": np.array([1e-5, 2e-5, 3e-5])}))
    assert f"mass: {float(np.float32(0.3))!r}" in m.to_yaml()
    assert "inertia: [1e-05, 2e-05, 3e-05]" in m.to_yaml()


def test_warnings_name_the_path_too():
    body = {"mass": 1, "inertia": [1, 1, 5], "position": [0, 0, 0]}
    from_dict = clearsim.from_dict({"bodies": {"b": body}}, name="w").warnings
    from_file = clearsim.loads("bodies:\n  b: {mass: 1, inertia: [1, 1, 5], position: [0, 0, 0]}\n",
                               name="w.yaml").warnings
    assert len(from_dict) == 1 and from_dict[0].startswith("w: warning: bodies.b.inertia: ")
    assert from_file[0].startswith("w.yaml:2:")
    assert from_dict[0].split(": warning: ")[1] == from_file[0].split(": warning: ")[1]
