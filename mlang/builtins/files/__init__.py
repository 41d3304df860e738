"""Files and data: MAT-files, text and binary files, delimited text and spreadsheets,
images, JSON, and the file system (folders, paths, the environment)."""
