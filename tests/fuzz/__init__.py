"""A fuzzer for mlang: random and mutated MATLAB programs run in isolated children.

``python -m tests.fuzz --minutes N`` (or ``--programs N --seed S``) generates
programs (``generate``: random syntax trees printed by the unparser;
``mutate``: byte-level mutations of the repository's .m files), runs each in a
forked child with time and memory limits (``runner``), and saves every bug
found (internal error, Python traceback, hang, crash), de-duplicated and
minimised (``campaign``).
"""
