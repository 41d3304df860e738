"""mlang's library of functions written in MATLAB: the ``.m`` files in this folder.

A Python package only so that installs carry the folder and the interpreter
finds it through importlib (``mlang.evaluation.interpreter.STDLIB``).
"""
