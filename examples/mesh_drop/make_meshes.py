#!/usr/bin/env python3
"""Writes the example's meshes as binary STL: ball.stl, an icosphere of radius 0.1 m (two
subdivisions, 320 triangles), and floor.stl, a 1 m x 1 m x 0.1 m slab with an 8 x 8 grid on top."""
import struct
from pathlib import Path


def icosphere(radius, levels):
    t = (1 + 5 ** 0.5) / 2
    v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t),
         (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
         (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
         (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    for _ in range(levels):
        mid, nf = {}, []
        def m(a, b):
            key = (min(a, b), max(a, b))
            if key not in mid:
                mid[key] = len(v)
                v.append(tuple((p + q) / 2 for p, q in zip(v[a], v[b])))
            return mid[key]
        for a, b, c in f:
            ab, bc, ca = m(a, b), m(b, c), m(c, a)
            nf += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        f = nf
    v = [tuple(radius * x / sum(y * y for y in p) ** 0.5 for x in p) for p in v]
    return v, f


def slab(size, thickness, cells):
    v, index, f = [], {}, []
    n = (cells, cells, 1)
    dims = (size, size, thickness)
    def vert(g):
        if g not in index:
            index[g] = len(v)
            v.append(tuple(dims[a] * (g[a] / n[a] - 0.5) for a in range(3)))
        return index[g]
    for a in range(3):
        u, w = (a + 1) % 3, (a + 2) % 3
        for side in (0, 1):
            for i in range(n[u]):
                for j in range(n[w]):
                    q = []
                    for ci, cj in ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)):
                        g = [0, 0, 0]
                        g[a], g[u], g[w] = side * n[a], ci, cj
                        q.append(vert(tuple(g)))
                    if side:
                        f += [(q[0], q[1], q[2]), (q[0], q[2], q[3])]
                    else:
                        f += [(q[0], q[2], q[1]), (q[0], q[3], q[2])]
    return v, f


def write_stl(path, v, f):
    with open(path, "wb") as out:
        out.write(b"clearsim example mesh".ljust(80, b" "))
        out.write(struct.pack("<I", len(f)))
        for tri in f:
            out.write(struct.pack("<3f", 0.0, 0.0, 0.0))
            for k in tri:
                out.write(struct.pack("<3f", *v[k]))
            out.write(b"\0\0")


here = Path(__file__).parent
write_stl(here / "ball.stl", *icosphere(0.1, 2))
write_stl(here / "floor.stl", *slab(1.0, 0.1, 8))
