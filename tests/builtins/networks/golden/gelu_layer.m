% geluLayer reference page, first example: the default layer shows its Approximation
% under Hyperparameters.
layer = geluLayer
