"""Patches with FaceColor 'interp': faces shaded from their corners' colours (colour
values through the colormap, or truecolour), the polygons keeping the edges."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.collections import TriMesh

from mlang.builtins.graphics.colormaps import colormap_by_name
from mlang.builtins.graphics.images_color import axes_colormap, map_values
from mlang.builtins.graphics.patch_shading import fan_triangles, subdivide


def _mesh(h) -> TriMesh:
    meshes = [a for a in h.artists if isinstance(a, TriMesh)]
    assert len(meshes) == 1
    return meshes[0]


def _corner_colours(mesh: TriMesh, corners: np.ndarray) -> list[np.ndarray]:
    """The mesh colour at the mesh points placed on each given corner."""
    tri = mesh._triangulation
    points = np.column_stack([tri.x, tri.y])
    colours = mesh.get_facecolor()
    return [colours[np.all(np.isclose(points, c), axis=1)][:, :3] for c in corners]


def test_colour_values_interpolate_through_the_colormap(g):
    g.run("p = patch([0 1 1 0], [0 0 1 1], [1 2 3 4]); f = strcmp(p.FaceColor, 'interp');")
    assert g.get("f")
    mesh = _mesh(g.get("p"))
    table = axes_colormap(g.get("p").axes())
    corners = np.array([[0, 0], [1, 0], [1, 1], [0, 1]])
    for value, found in zip([1, 2, 3, 4], _corner_colours(mesh, corners), strict=True):
        assert len(found) and np.allclose(found, map_values(np.array([value]), table, (1, 4)))
    # halfway along the bottom edge the colour is the colormap's at 1.5, not a blend of the corners'
    tri = mesh._triangulation
    points = np.column_stack([tri.x, tri.y])
    middle = mesh.get_facecolor()[np.all(np.isclose(points, [0.5, 0]), axis=1)][:, :3]
    assert len(middle) and np.allclose(middle, map_values(np.array([1.5]), table, (1, 4)))
    polygons = [a for a in g.get("p").artists if not isinstance(a, TriMesh)]
    assert polygons and all(pol.get_facecolor()[3] == 0 for pol in polygons)  # edges only


def test_colormap_and_clim_changes_reshade(g):
    g.run("p = patch([0 1 1], [0 0 1], [0; 5; 10]); colormap(gray); clim([0 10]);")
    mesh = _mesh(g.get("p"))
    found = _corner_colours(mesh, np.array([[1, 1]]))[0]
    assert np.allclose(found, colormap_by_name("gray", 256, None)[-1])


def test_truecolour_face_vertex_cdata(g):
    g.run("p = patch('Faces', [1 2 3; 1 3 4], 'Vertices', [0 0; 1 0; 1 1; 0 1], "
          "'FaceVertexCData', [1 0 0; 0 1 0; 0 0 1; 1 1 0], 'FaceColor', 'interp', 'FaceAlpha', 0.5);")
    mesh = _mesh(g.get("p"))
    corners = np.array([[0, 0], [1, 0], [1, 1], [0, 1]])
    expected = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]]
    for rgb, found in zip(expected, _corner_colours(mesh, corners), strict=True):
        assert len(found) and np.allclose(found, rgb)
    assert np.allclose(mesh.get_facecolor()[:, 3], 0.5)
    g.run("drawnow; saveas(gcf, 'interp.png');")


def test_face_vertex_values_and_nan_corners(g):
    g.run("p = patch('Faces', [1 2 3; 2 4 3], 'Vertices', [0 0; 1 0; 0 1; 1 1], "
          "'FaceVertexCData', [1; 2; 3; NaN], 'FaceColor', 'interp');")
    mesh = _mesh(g.get("p"))
    tri = mesh._triangulation
    assert np.max(tri.x[tri.triangles] + tri.y[tri.triangles]) <= 1 + 1e-12  # the NaN face is left out


def test_flat_faces_and_3d_axes_keep_one_colour_a_face(g):
    g.run("p = patch([0 1 1], [0 0 1], [1 2 3], 'FaceColor', 'flat');")
    assert not any(isinstance(a, TriMesh) for a in g.get("p").artists)
    g.run("figure; surf(magic(3)); hold on; q = patch([0 1 1], [0 0 1], [1 2 3]); drawnow;")
    assert not any(isinstance(a, TriMesh) for a in g.get("q").artists)


def test_fan_triangles_and_subdivision():
    triangles = fan_triangles([np.array([0, 1, 2, 3]), np.array([4, 5]), np.array([4, 5, 6])])
    assert triangles.tolist() == [[0, 1, 2], [0, 2, 3], [4, 5, 6]]
    assert fan_triangles([]).shape == (0, 3)
    points = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    fine_points, fine_values, fine = subdivide(points, np.array([0.0, 1.0, 2.0]), np.array([[0, 1, 2]]))
    # the values are linear in the position, and the small triangles cover the area once
    assert np.allclose(fine_values, fine_points[:, 0] + 2 * fine_points[:, 1])
    a, b, c = (fine_points[fine[:, k]] for k in range(3))
    areas = 0.5 * np.abs((b - a)[:, 0] * (c - a)[:, 1] - (b - a)[:, 1] * (c - a)[:, 0])
    assert areas.sum() == pytest.approx(0.5)
