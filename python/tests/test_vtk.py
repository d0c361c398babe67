"""The ParaView series of `clearsim run --vtk DIR` read back with VTK's own XML reader
(Debian's python3-vtk9) and checked against the CSV of the same run: the bodies' centres of
mass and axes, the shapes at their bodies' poses, a clearance joint's contact and the
mesh-contact regions' points, normals and forces.

Tolerance: the .vtp files hold every number as the exact double (VTK's binary XML writer in
src/io/vtk_series.cpp), and so does the CSV (17 digits), so a value written as computed equals the
CSV's bit for bit (AS_WRITTEN = 0, relative); derived quantities get the round-off of their
formula, said where they are checked.
series.pvd holds its times with 12 digits (5e-12 relative)."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

vtk_xml = pytest.importorskip("vtkmodules.vtkIOXML")
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402

from conftest import MODEL, SOURCE_DIR, read_csv, run_cli  # noqa: E402

AS_WRITTEN = 0.0  # relative: the files hold exact doubles
MESH_DROP = SOURCE_DIR / "examples" / "mesh_drop" / "model.yaml"
KIND_AXES, KIND_LINK, KIND_GROUND = (0, 1, 2), 3, 4


def read_vtp(path):
    """The vtkPolyData of one file; any error VTK reports (a malformed file) fails the test."""
    errors = []
    reader = vtk_xml.vtkXMLPolyDataReader()
    reader.AddObserver("ErrorEvent", lambda obj, event: errors.append(event))
    reader.SetFileName(str(path))
    reader.Update()
    assert not errors and reader.GetErrorCode() == 0, f"VTK cannot read {path}"
    return reader.GetOutput()


def points(poly):
    data = poly.GetPoints()
    return np.zeros((0, 3)) if data is None else vtk_to_numpy(data.GetData()).astype(float)


def cell_array(poly, name):
    return vtk_to_numpy(poly.GetCellData().GetArray(name))


def point_array(poly, name):
    return vtk_to_numpy(poly.GetPointData().GetArray(name)).astype(float)


def read_pvd(folder):
    """[(time, {part name: file})] of series.pvd, a plain XML collection (VTK's Python has no
    reader for it: that is ParaView's vtkPVDReader)."""
    steps = {}
    for ds in ET.parse(folder / "series.pvd").getroot().iter("DataSet"):
        steps.setdefault(float(ds.get("timestep")), {})[ds.get("name")] = folder / ds.get("file")
    return sorted(steps.items())


def rotation(rotvec):
    """Rodrigues' formula: the rotation matrix of a rotation vector (the `.rotation` channel)."""
    angle = np.linalg.norm(rotvec)
    if angle == 0.0:
        return np.eye(3)
    k = rotvec / angle
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


def run_with_vtk(tmp_path, model, channels, *sets):
    out, frames = tmp_path / "run.csv", tmp_path / "frames"
    listed = ", ".join(channels)
    proc = run_cli("run", model, "-q", "-o", out, "--vtk", frames,
                   "--set", f"output.channels=[{listed}]", *sets)
    assert proc.returncode == 0, proc.stderr
    return read_csv(out), read_pvd(frames)


def body_channels(names):
    return [f"{n}.{q}.{a}" for n in names for q in ("position", "rotation") for a in "xyz"]


def vec(csv, name, row):
    return np.array([csv[f"{name}.{a}"][row] for a in "xyz"])


def test_series_lists_every_step_of_every_part(tmp_path):
    csv, steps = run_with_vtk(tmp_path, MODEL, ["slider.position.x"], "--end", "0.002")
    assert len(steps) == len(csv["time"]) == 201
    for (t, parts), t_csv in zip(steps, csv["time"]):
        assert t == pytest.approx(t_csv, rel=5e-12, abs=1e-300)
        assert sorted(parts) == ["bodies", "contacts", "shapes"]
        assert all(f.is_file() for f in parts.values())


def test_slider_crank_bodies_match_the_csv(tmp_path):
    """The mechanism lines: each body's axes start at its centre of mass (= CSV position) and
    point along its rotation's columns; its links to joint markers keep their lengths (rigid
    bodies); the ground markers do not move."""
    names = ["crank", "rod", "slider"]
    csv, steps = run_with_vtk(tmp_path, MODEL, body_channels(names), "--end", "0.01",
                              "--every", "10")
    assert len(steps) == len(csv["time"]) == 101
    worst, worst_axis = 0.0, 0.0
    links0, ground0 = None, None
    for row, (_, parts) in enumerate(steps):
        poly = read_vtp(parts["bodies"])
        p = points(poly)
        body, kind = cell_array(poly, "body"), cell_array(poly, "kind")
        nv = poly.GetNumberOfVerts()
        ends = vtk_to_numpy(poly.GetLines().GetConnectivityArray()).reshape(-1, 2)
        assert len(body) == nv + len(ends)
        verts = vtk_to_numpy(poly.GetVerts().GetConnectivityArray())
        ground = p[verts]
        assert np.all(body[:nv] == -1) and np.all(kind[:nv] == KIND_GROUND)
        lb, lk = body[nv:], kind[nv:]
        links = []
        for b, name in enumerate(names):
            x, R = vec(csv, f"{name}.position", row), rotation(vec(csv, f"{name}.rotation", row))
            for axis in KIND_AXES:
                (cell,) = np.flatnonzero((lb == b) & (lk == axis))
                start, end = p[ends[cell, 0]], p[ends[cell, 1]]
                err = np.abs(start - x)
                assert np.all(err <= AS_WRITTEN * np.abs(x)), (name, row, start, x)
                worst = max(worst, np.max(err / np.maximum(np.abs(x), 1e-300)))
                # Glyph L ≥ 7.5 mm here (the crank's); each end is off by ≤ 5e-10·0.2 m per
                # coordinate, the difference by δ ≤ √3·2e-10 m, its direction by ≤ 2δ/L ≈ 1e-7.
                d = (end - start) / np.linalg.norm(end - start)
                assert np.allclose(d, R[:, axis], rtol=0, atol=1e-7), (name, axis, row)
                worst_axis = max(worst_axis, np.max(np.abs(d - R[:, axis])))
            cells = np.flatnonzero((lb == b) & (lk == KIND_LINK))
            links.append(np.linalg.norm(p[ends[cells, 1]] - p[ends[cells, 0]], axis=1))
        if row == 0:
            links0, ground0 = links, ground
            assert ground.shape == (2, 3)  # the crank pivot and the slider guide, on ground
        # Link lengths (≤ 0.12 m) of rigid bodies: unchanged up to the ends' rounding, 2e-10.
        for a, b0 in zip(links, links0):
            assert np.allclose(a, b0, rtol=0, atol=2e-10)
        assert np.array_equal(ground, ground0)
    assert worst <= AS_WRITTEN
    print(f"bodies: worst relative error of a centre of mass {worst:.2e}, "
          f"of an axis {worst_axis:.2e}")


def test_clearance_joint_contacts_match_the_csv(tmp_path):
    """The rod–slider spherical clearance joint (NSGA): a contact point exactly when the CSV's
    contact_state is 1 or 2, at the ball centre (the slider's centre of mass), with normal
    −R_rod·journal/‖journal‖ (towards the housing centre: the force on the ball), normal force
    the contact_force channel and penetration max(0, −gap)."""
    channels = ["slider.position.x", "slider.position.y", "slider.position.z", "rod.rotation.x",
                "rod.rotation.y", "rod.rotation.z", "rod_slider.journal", "rod_slider.gap",
                "rod_slider.contact_state", "rod_slider.contact_force"]
    csv, steps = run_with_vtk(tmp_path, MODEL, channels, "--end", "0.02", "--every", "4")
    assert len(steps) == len(csv["time"]) == 501
    touching, impacts, worst_normal = 0, 0, 0.0
    for row, (_, parts) in enumerate(steps):
        c = read_vtp(parts["contacts"])
        state = csv["rod_slider.contact_state"][row]
        assert c.GetNumberOfPoints() == (state != 0), row
        if state == 0:
            continue
        touching += 1
        impacts += state == 2
        x = vec(csv, "slider.position", row)
        assert np.all(np.abs(points(c)[0] - x) <= AS_WRITTEN * np.abs(x)), row
        journal = rotation(vec(csv, "rod.rotation", row)) @ vec(csv, "rod_slider.journal", row)
        normal = point_array(c, "normal")[0]
        # Ten digits of a unit vector's components: within 5e-10 each (1e-9 with R's rounding).
        assert np.allclose(normal, -journal / np.linalg.norm(journal), rtol=0, atol=1e-9), row
        worst_normal = max(worst_normal, np.abs(normal + journal / np.linalg.norm(journal)).max())
        fn = point_array(c, "normal_force")[0]
        assert fn == pytest.approx(csv["rod_slider.contact_force"][row], rel=AS_WRITTEN, abs=0)
        # F = F_N·N, each of F's components with 10 digits of its own.
        assert np.allclose(point_array(c, "force")[0], fn * normal, rtol=AS_WRITTEN,
                           atol=1e-9 * fn)
        gap = csv["rod_slider.gap"][row]
        assert point_array(c, "penetration")[0] == pytest.approx(max(0.0, -gap),
                                                                 rel=AS_WRITTEN, abs=0)
    assert touching >= 10 and impacts >= 1, (touching, impacts)
    print(f"clearance: {touching} of {len(steps)} steps in contact ({impacts} impacts); normal "
          f"within {worst_normal:.1e}")


def test_mesh_drop_shapes_and_contacts_match_the_csv(tmp_path):
    """mesh_drop until after the first impact (at t ≈ 0.175 s), every output point written: the
    ball's mesh moves rigidly with the CSV's pose; the contact regions are the CSV's
    impact.regions, their normal forces add up to impact.normal_force, their tangential parts
    to impact.friction_force, their deepest penetration is impact.penetration."""
    channels = ["ball.position.x", "ball.position.y", "ball.position.z", "ball.rotation.x",
                "ball.rotation.y", "ball.rotation.z", "impact.regions", "impact.normal_force",
                "impact.friction_force", "impact.penetration"]
    csv, steps = run_with_vtk(tmp_path, MESH_DROP, channels, "--end", "0.2",
                              "--set", "output.vtk_every=1", "--every", "5")
    assert len(steps) == len(csv["time"])
    body_frame0, touching, worst_rigid, worst_fn = None, 0, 0.0, 0.0
    for row, (_, parts) in enumerate(steps):
        shapes = read_vtp(parts["shapes"])
        ball = points(shapes)[np.unique(
            vtk_to_numpy(shapes.GetPolys().GetConnectivityArray())[
                np.repeat(cell_array(shapes, "shape") == 1, 3)])]
        x = vec(csv, "ball.position", row)
        R = rotation(vec(csv, "ball.rotation", row))
        body_frame = (ball - x) @ R  # rows: Rᵀ(p − x), the vertices in the ball's frame
        if body_frame0 is None:
            body_frame0 = body_frame
            assert np.allclose(np.linalg.norm(body_frame, axis=1), 0.1, atol=1e-6)  # r = 0.1 m
        # Each coordinate of p (|p| ≤ 0.4 m) off by ≤ 2e-10, so Rᵀ(p − x) by ≤ √3·2e-10 ≈ 4e-10.
        assert np.allclose(body_frame, body_frame0, rtol=0, atol=4e-10), row
        worst_rigid = max(worst_rigid, np.abs(body_frame - body_frame0).max())

        contacts = read_vtp(parts["contacts"])
        n = contacts.GetNumberOfPoints()
        assert n == csv["impact.regions"][row]
        if n == 0:
            continue
        touching += 1
        normal, force = point_array(contacts, "normal"), point_array(contacts, "force")
        fn, depth = point_array(contacts, "normal_force"), point_array(contacts, "penetration")
        assert np.allclose(np.linalg.norm(normal, axis=1), 1.0, rtol=0, atol=2e-9)
        assert normal[:, 2] == pytest.approx(1.0, abs=1e-3)  # the floor's normal, up
        # Sums of n ten-digit values: within n·5e-10 of the CSV's sum (no cancellation: F_N ≥ 0).
        assert fn.sum() == pytest.approx(csv["impact.normal_force"][row], rel=n * AS_WRITTEN)
        worst_fn = max(worst_fn, abs(fn.sum() / csv["impact.normal_force"][row] - 1))
        assert depth.max() == pytest.approx(csv["impact.penetration"][row], rel=AS_WRITTEN)
        # The force on the ball is F_N·N + F_T: its normal part is F_N (|N| = 1 ± 2e-9), and its
        # tangential part's length the friction force (cancellation in F − F_N·N: 1e-9·|F|).
        assert np.einsum("ij,ij->i", force, normal) == pytest.approx(fn, rel=1e-8, abs=1e-9)
        tangential = force - fn[:, None] * normal
        friction = np.linalg.norm(tangential, axis=1).sum()
        assert friction == pytest.approx(csv["impact.friction_force"][row],
                                         rel=1e-8, abs=1e-8 * np.abs(force).max())
        assert np.array_equal(point_array(contacts, "element"), np.zeros(n))
    assert touching >= 3, "the run must reach the impact"
    print(f"mesh_drop: {len(steps)} steps, {touching} in contact; ball mesh rigid within "
          f"{worst_rigid:.1e} m; sum of F_N within {worst_fn:.1e} (relative) of the CSV")
