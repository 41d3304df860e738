"""Deep Learning Toolbox training: trainingOptions and trainingProgressMonitor.

``options.py`` holds the training options objects (``TrainingOptionsADAM``,
``TrainingOptionsSGDM``, ``TrainingOptionsRMSProp``, ``TrainingOptionsLBFGS``) and
``monitor.py`` the training progress monitor of custom training loops with its
functions ``recordMetrics``, ``updateInfo``, ``groupSubPlot`` and ``yscale``.
"""

from mlang.registry import load_family

# The modules extend each other's objects as they load: the family loads as one.
load_family(__name__)
