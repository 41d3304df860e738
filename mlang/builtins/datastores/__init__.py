"""Datastores and mini-batch queues: arrayDatastore, combine, transform, minibatchqueue,
and the functions they share (read, readall, hasdata, reset, preview, shuffle,
partition, numpartitions, next).

``datastore.py`` holds the base class every datastore subclasses (a handle object
read in place); ``array_datastore.py`` the datastore over an in-memory array;
``combined.py`` the combined and transformed datastores; ``minibatchqueue.py`` the
queue of mini-batches; ``functions.py`` the functions, which send each call to the
object's own behaviour.
"""

from mlang.registry import load_family

# The modules extend each other's objects as they load: the family loads as one.
load_family(__name__)
