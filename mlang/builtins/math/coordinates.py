"""Coordinate transformations: cart2pol, pol2cart, cart2sph and sph2cart.

The inputs are real double or single arrays (logical and char count as
double) combined by implicit expansion; a single input gives single results.
Angles are in radians.
"""

from __future__ import annotations

import numpy as np

from mlang.builtins.math.elementwise import floating, require_real
from mlang.errors import error
from mlang.registry import builtin
from mlang.values.core import result


def _inputs(name: str, *values: object) -> tuple[list[np.ndarray], bool]:
    """The arguments as real double arrays broadcast to one shape, and whether the results
    are single."""
    arrays = [floating(name, v) for v in values]
    require_real(name, *arrays)
    single = any(a.dtype == np.float32 for a in arrays)
    nd = max(a.ndim for a in arrays)
    arrays = [a.reshape(a.shape + (1,) * (nd - a.ndim)).astype(np.float64) for a in arrays]
    for axis in range(nd):
        if len({a.shape[axis] for a in arrays} - {1}) > 1:
            raise error("MATLAB:sizeDimensionsMustMatch",
                        "Arrays have incompatible sizes for this operation.")
    return list(np.broadcast_arrays(*arrays)), single


def _outputs(single: bool, *values: np.ndarray) -> tuple:
    dtype = np.float32 if single else np.float64
    return tuple(result(np.array(v, dtype=dtype)) for v in values)


def _height(name: str, z: object) -> object:
    """The z coordinate, passed through unchanged (it must be a real number array)."""
    require_real(name, floating(name, z))
    return z


@builtin(nargout=True, max_out=3)
def cart2pol(x: object, y: object, z: object = None, *, nargout: int = 1) -> object:
    """[theta,rho] = cart2pol(x,y)
    [theta,rho,z] = cart2pol(x,y,z)

    Cartesian to polar (or cylindrical) coordinates: theta = atan2(y,x), rho = hypot(x,y)."""
    (xs, ys), single = _inputs("cart2pol", x, y)
    out = _outputs(single, np.arctan2(ys, xs), np.hypot(xs, ys))
    return out if z is None else out + (_height("cart2pol", z),)


@builtin(nargout=True, max_out=3)
def pol2cart(theta: object, rho: object, z: object = None, *, nargout: int = 1) -> object:
    """[x,y] = pol2cart(theta,rho)
    [x,y,z] = pol2cart(theta,rho,z)

    Polar (or cylindrical) to Cartesian coordinates: x = rho.*cos(theta), y = rho.*sin(theta)."""
    (ts, rs), single = _inputs("pol2cart", theta, rho)
    with np.errstate(all="ignore"):
        out = _outputs(single, rs * np.cos(ts), rs * np.sin(ts))
    return out if z is None else out + (_height("pol2cart", z),)


@builtin(nargout=True, max_out=3)
def cart2sph(x: object, y: object, z: object, *, nargout: int = 1) -> object:
    """[azimuth,elevation,r] = cart2sph(x,y,z)

    Cartesian to spherical coordinates: azimuth in the x-y plane from the x axis,
    elevation from the x-y plane, r the distance from the origin."""
    (xs, ys, zs), single = _inputs("cart2sph", x, y, z)
    planar = np.hypot(xs, ys)
    return _outputs(single, np.arctan2(ys, xs), np.arctan2(zs, planar), np.hypot(planar, zs))


@builtin(nargout=True, max_out=3)
def sph2cart(azimuth: object, elevation: object, r: object, *, nargout: int = 1) -> object:
    """[x,y,z] = sph2cart(azimuth,elevation,r)

    Spherical to Cartesian coordinates: x = r.*cos(elevation).*cos(azimuth),
    y = r.*cos(elevation).*sin(azimuth), z = r.*sin(elevation)."""
    (az, el, rs), single = _inputs("sph2cart", azimuth, elevation, r)
    with np.errstate(all="ignore"):
        planar = rs * np.cos(el)
        return _outputs(single, planar * np.cos(az), planar * np.sin(az), rs * np.sin(el))
