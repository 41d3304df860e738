"""Graphics functions not drawn yet, accepted and ignored.

Scripts that plot their results (quiver, imagesc, xlabel, hold on, ...) run
to the end and print everything else they print.  A function asked for an
output returns a placeholder graphics handle (the number 1).
"""

from __future__ import annotations

from mlang.registry import builtin

GRAPHICS_FUNCTIONS = (
    "scatter", "scatter3", "bar", "barh",
    "histogram", "area", "stairs", "stem", "errorbar", "fill", "patch", "text",
    "quiver", "quiver3", "contour", "contourf", "surf", "mesh", "imagesc", "image", "imshow",
    "pcolor", "colormap", "colorbar", "caxis", "clim",
    "xlabel", "ylabel", "zlabel", "title", "subtitle", "legend", "grid", "box", "axis",
    "xlim", "ylim", "zlim", "xticks", "yticks", "view",
)


def _register(name: str) -> None:
    def ignored(*args: object, nargout: int = 0) -> object:
        return tuple(1.0 for _ in range(nargout)) or None

    ignored.__name__ = name
    builtin(name, nargout=True, max_out=None, dl="native",
            help=f"{name}(...)  graphics: accepted and ignored (mlang does not draw figures yet)")(ignored)


for _name in GRAPHICS_FUNCTIONS:
    _register(_name)
