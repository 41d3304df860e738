"""The Python API of mlang: ``Session`` runs MATLAB code and moves values both ways.

``import mlang; m = mlang.Session()``: see ``mlang.api.session.Session`` and the
conversions table in ``mlang.api.conversions`` (and the README's "From Python").
"""

from mlang.api.conversions import MatlabFunction, PythonFunction, from_matlab, to_matlab
from mlang.api.session import MatlabError, Session, Workspace

__all__ = ["MatlabError", "MatlabFunction", "PythonFunction", "Session", "Workspace", "from_matlab",
           "to_matlab"]
