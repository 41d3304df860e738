function [cpu, wall, loss, grads] = ad_pinn(params, X, f, g, n, accelerate)
% AD_PINN  benchmark (c): a PINN-style loss with a second derivative.
% u(x,t) = W3*tanh(W2*tanh(W1*[x;t] + b1) + b2) + b3 on the points X (2xN, rows
% x and t); f and g are 1xN targets.  Each of the N calls evaluates, inside dlfeval,
%   loss = mean((d2u/dx2 - f).^2) + mean((u - g).^2)
% with d2u/dx2 from two dlgradient calls with 'EnableHigherDerivatives', then
% the gradient of the loss with respect to the weights.  Returns the CPU and
% elapsed seconds of the N calls, the last loss and gradients (plain arrays).
% With ACCELERATE true, the loss function is called through dlaccelerate (its trace
% is recorded at the first call, outside the timed calls, and replayed after).
names = fieldnames(params);
for k = 1:numel(names)
    params.(names{k}) = dlarray(params.(names{k}));
end
X = dlarray(X);
fun = @pinn_gradient;
if nargin > 5 && accelerate
    fun = dlaccelerate(fun);
    [~, ~] = dlfeval(fun, params, X, f, g);
end
cpu0 = cputime;
tic;
for k = 1:n
    [loss, grads] = dlfeval(fun, params, X, f, g);
end
wall = toc;
cpu = cputime - cpu0;
loss = extractdata(loss);
for k = 1:numel(names)
    grads.(names{k}) = extractdata(grads.(names{k}));
end
end

function [loss, grads] = pinn_gradient(params, X, f, g)
u = model(params, X);
du = dlgradient(sum(u, 'all'), X, 'EnableHigherDerivatives', true);
ux = du(1, :);
d2u = dlgradient(sum(ux, 'all'), X, 'EnableHigherDerivatives', true);
uxx = d2u(1, :);
loss = mean((uxx - f).^2) + mean((u - g).^2);
grads = dlgradient(loss, params);
end

function u = model(params, X)
h = tanh(params.W1*X + params.b1);
h = tanh(params.W2*h + params.b2);
u = params.W3*h + params.b3;
end
