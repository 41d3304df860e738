"""Data: arrays and their shape, classes and conversions, cells, structs, containers.Map."""
