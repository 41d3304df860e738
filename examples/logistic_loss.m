function loss = logistic_loss(params, X, y)
%LOGISTIC_LOSS  Loss of a logistic-regression model: the mean cross-entropy of the
%   labels Y (0 or 1, a column) given the features X (one row per sample), plus a small
%   L2 penalty on the weights.  PARAMS is a struct with fields w (a column) and b.
%   examples/scipy_logistic_fit.py minimises it with SciPy through mlang.Session.grad.
z = X * params.w + params.b;
loss = mean(log(1 + exp(z)) - y .* z) + 0.01 * sum(params.w .^ 2);
end
