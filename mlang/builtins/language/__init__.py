"""The language: errors and warnings, introspection, eval and feval, validators."""
