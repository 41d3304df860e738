"""Deep Learning Toolbox: dlarray, dlfeval, dlgradient and activations."""
