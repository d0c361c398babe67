#!/usr/bin/python3
"""Renders one step of a clearsim ParaView series (`clearsim run --vtk DIR`) to a PNG without a
display: the files are read with VTK's XML reader (Debian's python3-vtk9) and drawn with
matplotlib's Agg backend — Debian's VTK renders only through an X server, so VTK's own
off-screen rendering is not used.

Drawn: the shapes' triangles at their poses (shaded), the mechanism lines (each body's axes in
red/green/blue, links from its centre of mass to its joint and contact markers in grey, ground
markers as black dots) and the contacts (points, with their forces as arrows scaled to a
fifth of the scene).

    /usr/bin/python3 examples/render_vtk_frame.py SERIES_DIR -o frame.png [--step K | --time T]

Without --step or --time the step with the largest total contact force is drawn (the last
step when nothing touches)."""

import argparse
import pathlib
import sys
import xml.etree.ElementTree as ET

import matplotlib

matplotlib.use("Agg")  # headless: no display is opened
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Line3DCollection, Poly3DCollection  # noqa: E402
from vtkmodules.util.numpy_support import vtk_to_numpy  # noqa: E402
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader  # noqa: E402

AXIS_COLOURS = ("tab:red", "tab:green", "tab:blue")
SHAPE_COLOURS = np.array([[0.62, 0.66, 0.72], [0.85, 0.55, 0.25], [0.35, 0.6, 0.85],
                          [0.55, 0.75, 0.45]])
LIGHT = np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8])


def read_pvd(folder):
    """[(time, {part name: path})], in time order. series.pvd is a plain XML list (VTK's Python
    has no reader for it: that is ParaView's vtkPVDReader)."""
    steps = {}
    for ds in ET.parse(folder / "series.pvd").getroot().iter("DataSet"):
        steps.setdefault(float(ds.get("timestep")), {})[ds.get("name")] = folder / ds.get("file")
    return sorted(steps.items())


def read_vtp(path):
    reader = vtkXMLPolyDataReader()
    reader.SetFileName(str(path))
    reader.Update()
    if reader.GetErrorCode():
        sys.exit(f"render_vtk_frame: VTK cannot read {path}")
    return reader.GetOutput()


def points(poly):
    data = poly.GetPoints()
    return np.zeros((0, 3)) if data is None else vtk_to_numpy(data.GetData()).astype(float)


def connectivity(cells, per_cell):
    return vtk_to_numpy(cells.GetConnectivityArray()).reshape(-1, per_cell)


def total_force(path):
    poly = read_vtp(path)
    return 0.0 if poly.GetNumberOfPoints() == 0 else float(
        vtk_to_numpy(poly.GetPointData().GetArray("normal_force")).sum())


def choose_step(steps, step, time):
    if step is not None:
        return steps[step]
    if time is not None:
        return min(steps, key=lambda s: abs(s[0] - time))
    forces = [total_force(parts["contacts"]) for _, parts in steps]
    return steps[int(np.argmax(forces))] if max(forces) > 0.0 else steps[-1]


def draw_shapes(ax, poly):
    p, tri = points(poly), connectivity(poly.GetPolys(), 3)
    if len(tri) == 0:
        return p
    faces = p[tri]
    n = np.cross(faces[:, 1] - faces[:, 0], faces[:, 2] - faces[:, 0])
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-300)
    shade = 0.45 + 0.55 * np.clip(n @ LIGHT, 0.0, 1.0)  # outward normals (closed meshes)
    shape = vtk_to_numpy(poly.GetCellData().GetArray("shape"))
    colours = SHAPE_COLOURS[shape % len(SHAPE_COLOURS)] * shade[:, None]
    # Half transparent: the lines and contacts drawn over them lie inside or under the shapes.
    ax.add_collection3d(Poly3DCollection(faces, facecolors=colours, edgecolors="none",
                                         alpha=0.55, zorder=1))
    return p


def draw_bodies(ax, poly):
    p = points(poly)
    kind = vtk_to_numpy(poly.GetCellData().GetArray("kind"))
    nv = poly.GetNumberOfVerts()
    if nv:
        g = p[connectivity(poly.GetVerts(), 1)[:, 0]]
        ax.scatter(g[:, 0], g[:, 1], g[:, 2], color="black", s=12, depthshade=False, zorder=3)
    if poly.GetNumberOfLines():
        seg = p[connectivity(poly.GetLines(), 2)]
        colours = [AXIS_COLOURS[k] if k < 3 else "0.35" for k in kind[nv:]]
        widths = [1.5 if k < 3 else 2.5 for k in kind[nv:]]
        ax.add_collection3d(Line3DCollection(seg, colors=colours, linewidths=widths, zorder=2))
    return p


def draw_contacts(ax, poly, scene):
    p = points(poly)
    if len(p) == 0:
        return "no contact"
    f = vtk_to_numpy(poly.GetPointData().GetArray("force")).astype(float)
    fn = vtk_to_numpy(poly.GetPointData().GetArray("normal_force")).astype(float)
    ax.scatter(p[:, 0], p[:, 1], p[:, 2], color="crimson", s=18, depthshade=False, zorder=4)
    scale = 0.2 * scene / max(np.linalg.norm(f, axis=1).max(), 1e-300)
    ax.quiver(p[:, 0], p[:, 1], p[:, 2], *(scale * f).T, color="crimson", linewidth=2,
              arrow_length_ratio=0.25, zorder=4)
    return f"{len(p)} contact{'s' if len(p) > 1 else ''}, F_N = {fn.sum():.4g} N"


def render(folder, out, step=None, time=None, size=(6.4, 4.8), dpi=100, view=(20, -60),
           title=None):
    steps = read_pvd(folder)
    if not steps:
        sys.exit(f"render_vtk_frame: {folder}/series.pvd lists no step")
    t, parts = choose_step(steps, step, time)
    fig = plt.figure(figsize=size, dpi=dpi)
    ax = fig.add_subplot(projection="3d")
    # Draw in the order shapes, lines, contacts: matplotlib's depth sort of whole collections
    # would hide a contact point under the mesh it touches.
    ax.computed_zorder = False
    cloud = [draw_shapes(ax, read_vtp(parts["shapes"])), draw_bodies(ax, read_vtp(parts["bodies"]))]
    cloud = np.vstack([c for c in cloud if len(c)] or [np.zeros((1, 3))])
    lo, hi = cloud.min(axis=0), cloud.max(axis=0)
    scene = float(np.max(hi - lo)) or 1.0
    label = draw_contacts(ax, read_vtp(parts["contacts"]), scene)
    # Equal scales on the three axes, so that shapes keep their proportions.
    centre = (lo + hi) / 2
    ax.set_box_aspect(np.maximum(hi - lo, 0.05 * scene), zoom=1.1)
    for setter, c, half in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), centre,
                               np.maximum(hi - lo, 0.05 * scene) / 2):
        setter(c - half, c + half)
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_zlabel("z [m]")
    ax.view_init(*view)
    ax.set_title(f"{title or folder.name}: t = {t:.4g} s, {label}", fontsize=10)
    fig.subplots_adjust(left=0, right=0.94, bottom=0.02, top=0.95)  # 3D axes keep wide margins
    fig.savefig(out, dpi=dpi)
    plt.close(fig)
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("series", type=pathlib.Path, help="folder written by clearsim run --vtk")
    ap.add_argument("-o", "--output", type=pathlib.Path, default=pathlib.Path("frame.png"))
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--step", type=int, help="index of the written step (0 = first)")
    which.add_argument("--time", type=float, help="the written step nearest this time [s]")
    ap.add_argument("--size", type=float, nargs=2, default=(6.4, 4.8), metavar=("W", "H"),
                    help="figure size in inches at 100 dpi")
    ap.add_argument("--view", type=float, nargs=2, default=(20, -60), metavar=("ELEV", "AZIM"),
                    help="camera elevation and azimuth [deg]")
    ap.add_argument("--title", help="title before the time (default: the folder's name)")
    a = ap.parse_args()
    t = render(a.series, a.output, a.step, a.time, tuple(a.size), view=tuple(a.view),
               title=a.title)
    print(f"{a.output}: step at t = {t:.6g} s")


if __name__ == "__main__":
    main()
