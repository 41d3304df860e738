"""Interpolated patch faces (FaceColor 'interp'): each face's colour varies across it from
its corners' colours, drawn as Gouraud-shaded triangles (a fan from each face's first
corner).

Colour data mapped through the colormap is interpolated as values, as MATLAB does: the
triangles are subdivided so that the colours between the corners follow the colormap
rather than a straight line between the corners' colours; truecolour data is interpolated
in RGB."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from mlang.builtins.graphics.images_color import map_values

# Subdivided triangles (a level k splits a triangle into k*k) kept below this many, so a
# large mesh costs what a plain one does.
MAX_TRIANGLES = 200_000
FINEST_LEVEL = 8


def fan_triangles(faces: list[np.ndarray]) -> np.ndarray:
    """The triangles (T×3 vertex indices) covering faces given as arrays of 0-based vertex
    indices: a fan from each face's first corner."""
    parts = [np.column_stack([np.full(face.size - 2, face[0]), face[1:-1], face[2:]])
             for face in faces if face.size >= 3]
    return np.concatenate(parts).astype(int) if parts else np.zeros((0, 3), dtype=int)


@cache
def _barycentric_grid(level: int) -> tuple[np.ndarray, np.ndarray]:
    """The weights (P×3) of the points that split a triangle into level² triangles, and
    those triangles (level²×3 indices into the points)."""
    index: dict[tuple[int, int], int] = {}
    weights = []
    for i in range(level + 1):
        for j in range(level + 1 - i):
            index[(i, j)] = len(weights)
            weights.append((i / level, j / level, (level - i - j) / level))
    triangles = []
    for i in range(level):
        for j in range(level - i):
            triangles.append((index[(i, j)], index[(i + 1, j)], index[(i, j + 1)]))
            if i + j < level - 1:
                triangles.append((index[(i + 1, j)], index[(i + 1, j + 1)], index[(i, j + 1)]))
    return np.array(weights), np.array(triangles, dtype=int)


def subdivide(points: np.ndarray, values: np.ndarray, triangles: np.ndarray) -> tuple[np.ndarray, ...]:
    """The triangles split finer (points, values interpolated linearly, triangles), each
    triangle on its own points."""
    level = FINEST_LEVEL
    while level > 1 and len(triangles) * level * level > MAX_TRIANGLES:
        level -= 1
    weights, local = _barycentric_grid(level)
    corners = points[triangles]  # T×3×2
    fine_points = np.einsum("pk,tkd->tpd", weights, corners).reshape(-1, 2)
    fine_values = np.einsum("pk,tk->tp", weights, values[triangles]).reshape(-1)
    offsets = np.arange(len(triangles))[:, None, None] * len(weights)
    return fine_points, fine_values, (local[None] + offsets).reshape(-1, 3)


def gouraud_mesh(ax: Any, points: np.ndarray, rgba: np.ndarray, triangles: np.ndarray) -> Any:
    """Add triangles shaded from their corners' RGBA colours to the axes."""
    from matplotlib.collections import TriMesh  # matplotlib on first use: keeps start-up fast
    from matplotlib.tri import Triangulation

    mesh = TriMesh(Triangulation(points[:, 0], points[:, 1], triangles))
    mesh.set_facecolor(rgba)  # one colour a point: TriMesh shades each triangle from them
    ax.add_collection(mesh, autolim=True)
    return mesh


def interpolated_faces(ax: Any, points: np.ndarray, faces: list[np.ndarray], values: np.ndarray | None,
                       rgb: np.ndarray | None, mapping: tuple[np.ndarray, tuple[float, float]] | None,
                       alpha: float) -> Any:
    """Draw faces (0-based vertex index arrays into ``points``) coloured from one colour
    value a vertex (``values``, mapped through ``mapping``) or one RGB colour a vertex
    (``rgb``).  A face with a NaN corner is left out, as MATLAB leaves it unfilled."""
    triangles = fan_triangles(faces)
    corner_data = values if values is not None else rgb
    if corner_data is None or not len(triangles):
        return None
    bad = np.isnan(corner_data.reshape(len(corner_data), -1)).any(axis=1)
    triangles = triangles[~bad[triangles].any(axis=1)]
    if not len(triangles):
        return None
    if values is not None and mapping is not None:
        points, fine, triangles = subdivide(points, values, triangles)
        colors = map_values(fine, *mapping)
    else:
        colors = np.clip(rgb, 0, 1)
    rgba = np.column_stack([colors, np.full(len(colors), alpha)])
    return gouraud_mesh(ax, points, rgba, triangles)
